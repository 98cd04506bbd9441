"""Comparisons for the judge: find the worst element, say expected vs got, and name common mistakes."""

from __future__ import annotations

import math

import torch

from quiz.grader.say import say


def no_grad_fn() -> str:
    return say(
        "the output has no grad_fn, so autograd cannot reach your backward: call the Function via "
        ".apply(...) (not .forward), and do not detach or use torch.no_grad() on the result in forward.",
        "输出没有 grad_fn，autograd 走不到你的 backward：要通过 .apply(...)（而不是 .forward）调用 Function，"
        "并且在 forward 里不要对结果 detach，也不要用 torch.no_grad()。",
    )


def index(flat: int, shape: list[int]) -> str:
    if not shape:
        return "()"
    idx = []
    for size in reversed(shape):
        idx.append(flat % size)
        flat //= size
    return "(" + ", ".join(str(i) for i in reversed(idx)) + ")"


def fmt(x: float) -> str:
    return "0" if x == 0 else f"{x:.6g}"


def worst_mismatch(expected: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> tuple[int, float] | None:
    """The flat index and size of the largest violation of |got-exp| <= atol + rtol*|exp|, or None."""
    if expected.shape != got.shape:
        return -1, float("inf")
    e, g = expected.reshape(-1).to(torch.float64), got.reshape(-1).to(torch.float64)
    both_nan = torch.isnan(e) & torch.isnan(g)
    same_inf = torch.isinf(e) & (e == g)
    diff = (g - e).abs()
    diff = torch.where(both_nan | same_inf, torch.zeros_like(diff), diff)
    diff = torch.where(torch.isnan(diff), torch.full_like(diff, float("inf")), diff)
    excess = diff - (atol + rtol * e.abs().nan_to_num(posinf=0.0))
    if e.numel() == 0 or excess.max() <= 0:
        return None
    k = int(excess.argmax())
    return k, float(diff[k])


def compare(label: str, what: str, exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str | None:
    """None when `got` matches `exp`; else a message naming the worst element, expected vs got."""
    if list(got.shape) != list(exp.shape):
        return say(
            f"{label} has shape {list(got.shape)}; expected {list(exp.shape)}",
            f"{label}的形状是 {list(got.shape)}，应为 {list(exp.shape)}",
        )
    bad = worst_mismatch(exp, got, atol, rtol)
    if bad is None:
        return None
    k, size = bad
    e, g = float(exp.reshape(-1)[k]), float(got.reshape(-1)[k])
    hint = (
        say(
            " (NaN or inf there: look for overflow, inf/inf or 0*inf, e.g. exp of a large value)",
            "（那里是 NaN 或 inf：检查是否有溢出、inf/inf 或 0*inf，比如对很大的值取 exp）",
        )
        if g != g or abs(g) == float("inf")
        else ""
    )
    return say(
        f"{what} at {index(k, list(exp.shape))} should be {fmt(e)} but is {fmt(g)}; largest difference {fmt(size)}{hint}",
        f"{what}在 {index(k, list(exp.shape))} 处应为 {fmt(e)}，实际是 {fmt(g)}；最大差值 {fmt(size)}{hint}",
    )


def gradient_hint(exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str:
    """Name the pattern behind a wrong gradient: a flipped sign, a missing term, a constant factor."""
    e, g = exp.reshape(-1).to(torch.float64), got.reshape(-1).to(torch.float64)
    if worst_mismatch(e, -g, atol, rtol) is None:
        return say(". The sign is flipped.", "。符号反了。")
    if float(g.abs().max()) == 0.0:
        return say(
            ". Your gradient is zero everywhere: a term or an input's gradient is missing.",
            "。你的梯度处处为零：漏了某一项，或者漏了某个输入的梯度。",
        )
    denom = float((e * e).sum())
    if denom > 0:
        ratio = float((g * e).sum()) / denom
        if (
            math.isfinite(ratio)
            and abs(ratio) > 1e-12
            and abs(ratio - 1) > 1e-9
            and worst_mismatch(e * ratio, g, atol, rtol) is None
        ):
            return say(
                f". It is {ratio:.6g} times the right value everywhere: a constant factor is off (counted twice, or a scale missing).",
                f"。它处处都是正确值的 {ratio:.6g} 倍：差了一个常数因子（某项算了两次，或者漏了缩放）。",
            )
    return say(".", "。")


def arg_name(names: list[str], i: int) -> str:
    if i < len(names) and names[i]:
        return f"'{names[i]}'"
    return say(f"input {i}", f"输入 {i}")
