"""The trusted side: compare what a child measured with what is expected, and say what is wrong."""

from __future__ import annotations

from typing import Any

import torch

from quiz.grader import inputs as I
from quiz.grader.results import FAIL, PASS, TestResult


NEEDS_FULL = "fast projection check failed; measuring full Jacobians"


def _index(flat: int, shape: list[int]) -> str:
    if not shape:
        return "()"
    idx = []
    for size in reversed(shape):
        idx.append(flat % size)
        flat //= size
    return "(" + ", ".join(str(i) for i in reversed(idx)) + ")"


def _fmt(x: float) -> str:
    return "0" if x == 0 else f"{x:.6g}"


def worst_mismatch(expected: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> tuple[int, float] | None:
    """The flat index and size of the largest violation of |got-exp| <= atol + rtol*|exp|, or None."""
    if expected.shape != got.shape:
        return -1, float("inf")
    e, g = expected.reshape(-1), got.reshape(-1)
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


def forward_problems(info: dict, name_of) -> str | None:
    """Mistakes visible from forward alone: a lost grad_fn, an input changed in place, the wrong dtype."""
    if info.get("changed_inputs"):
        which = ", ".join(name_of(i) for i in info["changed_inputs"])
        return f"forward changed {which} in place; leave inputs untouched and compute a new tensor."
    if info.get("no_grad_fn"):
        return (
            "the output has no grad_fn, so autograd cannot reach your backward: call the Function via "
            ".apply(...) (not .forward), and do not detach or use torch.no_grad() on the result in forward."
        )
    if any(d != "float64" for d in info.get("out_dtypes", [])):
        return (
            f"forward returned {', '.join(info['out_dtypes'])} for float64 inputs; keep the input dtype: "
            "gradcheck's finite differences need float64 (in float32 they are far too coarse)."
        )
    return None


def judge_gradcheck(name: str, data: dict, arg_names: list[str], atol: float, rtol: float, second: bool) -> TestResult:
    diff = data["diff"]
    name_of = lambda i: _arg_name(arg_names, i)  # noqa: E731
    problem = forward_problems(data["info"], name_of)
    if problem:
        return TestResult(name, FAIL, problem)
    what = "gradient of your backward" if second else "gradient"
    if "projections" in data:
        for analytical, numerical in data["projections"]:
            if not abs(analytical - numerical) <= atol + rtol * abs(numerical):
                return TestResult(name, FAIL, NEEDS_FULL)
        return TestResult(name, PASS, f"{'second-order ' if second else ''}gradients match finite differences")
    for pos, i in enumerate(diff):
        analytical = I.from_plain(data["analytical"][pos])
        numerical = I.from_plain(data["numerical"][pos])
        bad = worst_mismatch(numerical, analytical, atol, rtol)
        if bad is None:
            continue
        k, size = bad
        n_in = numerical.shape[1]
        out_k, in_k = divmod(k, n_in)
        in_shape = data["inputs"][pos]["shape"]
        exp, got = float(numerical.reshape(-1)[k]), float(analytical.reshape(-1)[k])
        shapes = data["info"].get("out_shapes", [])
        out_at = _index(out_k, shapes[0]) if len(shapes) == 1 and not second else f"[{out_k}]"
        where = f"d out{out_at} / d {name_of(i).strip(chr(39))}{_index(in_k, in_shape)}"
        message = (
            f"wrong {what} for {name_of(i)}: {where} should be {_fmt(exp)} (finite differences) "
            f"but your backward gives {_fmt(got)}; largest difference {_fmt(size)} "
            f"(atol {atol:g}, rtol {rtol:g})."
        )
        if abs(exp + got) <= atol + rtol * abs(exp) and abs(exp) > atol:
            message += " The sign is flipped."
        elif abs(got) <= 1e-12 < abs(exp):
            message += " Your gradient is zero there: a term or an input's gradient is missing."
        return TestResult(name, FAIL, message)
    return TestResult(name, FAIL, f"wrong {what}: a random projection of your Jacobian disagrees with finite differences, though no single element is past the tolerance")


def judge_reference(name: str, data: dict, expected_outs: list[torch.Tensor], expected_grads: list[Any] | None,
                    arg_names: list[str], diff: list[int], atol: float, rtol: float) -> TestResult:
    name_of = lambda i: _arg_name(arg_names, i)  # noqa: E731
    info = data["info"]
    if info.get("changed_inputs"):
        return TestResult(name, FAIL, forward_problems({"changed_inputs": info["changed_inputs"]}, name_of))
    outs = [I.from_plain(o) for o in data["outputs"]]
    if len(outs) != len(expected_outs):
        return TestResult(name, FAIL, f"forward returned {len(outs)} tensor(s); expected {len(expected_outs)}")
    for j, (got, exp) in enumerate(zip(outs, expected_outs)):
        problem = _compare(f"output {j}", "forward output", exp, got, atol, rtol)
        if problem:
            return TestResult(name, FAIL, problem)
    if expected_grads is not None:
        problem = forward_problems({"no_grad_fn": info.get("no_grad_fn")}, name_of)
        if problem:
            return TestResult(name, FAIL, problem)
        for pos, (i, exp) in enumerate(zip(diff, expected_grads)):
            got_plain = data["grads"][pos]
            if exp is None:
                continue
            if got_plain is None:
                return TestResult(name, FAIL, f"no gradient reached {name_of(i)}: backward returned None for it")
            got = I.from_plain(got_plain)
            problem = _compare(f"gradient for {name_of(i)}", f"gradient for {name_of(i)}", exp, got, atol, rtol)
            if problem:
                return TestResult(name, FAIL, problem)
    return TestResult(name, PASS, "output" + (" and gradients match" if expected_grads is not None else " matches") + " the reference")


def _compare(label: str, what: str, exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str | None:
    """None when `got` matches `exp`; else a message naming the worst element, expected vs got."""
    if list(got.shape) != list(exp.shape):
        return f"{label} has shape {list(got.shape)}; expected {list(exp.shape)}"
    bad = worst_mismatch(exp.to(torch.float64), got, atol, rtol)
    if bad is None:
        return None
    k, size = bad
    e, g = float(exp.reshape(-1)[k]), float(got.reshape(-1)[k])
    hint = " (NaN or inf there: look for overflow, inf/inf or 0*inf, e.g. exp of a large value)" if g != g or abs(g) == float("inf") else ""
    return f"{what} at {_index(k, list(exp.shape))} should be {_fmt(e)} but is {_fmt(g)}; largest difference {_fmt(size)}{hint}"


def _arg_name(names: list[str], i: int) -> str:
    if i < len(names) and names[i]:
        return f"'{names[i]}'"
    return f"input {i}"
