"""Comparisons for the judge: find the worst element, say expected vs got, and name common mistakes."""

from __future__ import annotations

import math

import torch

NO_GRAD_FN = (
    "the output has no grad_fn, so autograd cannot reach your backward: call the Function via "
    ".apply(...) (not .forward), and do not detach or use torch.no_grad() on the result in forward."
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
        return f"{label} has shape {list(got.shape)}; expected {list(exp.shape)}"
    bad = worst_mismatch(exp, got, atol, rtol)
    if bad is None:
        return None
    k, size = bad
    e, g = float(exp.reshape(-1)[k]), float(got.reshape(-1)[k])
    hint = " (NaN or inf there: look for overflow, inf/inf or 0*inf, e.g. exp of a large value)" if g != g or abs(g) == float("inf") else ""
    return f"{what} at {index(k, list(exp.shape))} should be {fmt(e)} but is {fmt(g)}; largest difference {fmt(size)}{hint}"


def gradient_hint(exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str:
    """Name the pattern behind a wrong gradient: a flipped sign, a missing term, a constant factor."""
    e, g = exp.reshape(-1).to(torch.float64), got.reshape(-1).to(torch.float64)
    if worst_mismatch(e, -g, atol, rtol) is None:
        return ". The sign is flipped."
    if float(g.abs().max()) == 0.0:
        return ". Your gradient is zero everywhere: a term or an input's gradient is missing."
    denom = float((e * e).sum())
    if denom > 0:
        ratio = float((g * e).sum()) / denom
        if math.isfinite(ratio) and abs(ratio) > 1e-12 and abs(ratio - 1) > 1e-9 and worst_mismatch(e * ratio, g, atol, rtol) is None:
            return f". It is {ratio:.6g} times the right value everywhere: a constant factor is off (counted twice, or a scale missing)."
    return "."


def arg_name(names: list[str], i: int) -> str:
    if i < len(names) and names[i]:
        return f"'{names[i]}'"
    return f"input {i}"
