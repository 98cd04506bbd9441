"""What runs inside a check's child process: call the learner's entry and measure, never judge.

The child returns plain numbers; the worker (trusted side) decides pass or fail. References to
torch functions are taken before learner code runs, so patching them changes nothing here.
"""

from __future__ import annotations

from typing import Any

import torch

from quiz.grader import inputs as I

_grad = torch.autograd.grad
_no_grad = torch.no_grad
_clone = torch.Tensor.clone
_detach = torch.Tensor.detach
_equal = torch.equal
_isnan = torch.isnan

PROTECTED = [
    (torch, "allclose"), (torch, "isclose"), (torch, "equal"), (torch.testing, "assert_close"),
    (torch.autograd, "gradcheck"), (torch.autograd, "gradgradcheck"), (torch.autograd, "grad"),
    (torch.Tensor, "backward"), (torch.Tensor, "allclose"), (torch.Tensor, "clone"), (torch.Tensor, "detach"),
]


def snapshot() -> list[Any]:
    return [getattr(obj, name) for obj, name in PROTECTED]


def restore(saved: list[Any]) -> list[str]:
    """Put back every protected function; name the ones the learner's code had replaced."""
    patched = []
    for (obj, name), original in zip(PROTECTED, saved):
        if getattr(obj, name) is not original:
            patched.append(f"{getattr(obj, '__name__', type(obj).__name__)}.{name}")
            setattr(obj, name, original)
    return patched


def is_function_class(entry: Any) -> bool:
    return isinstance(entry, type) and issubclass(entry, torch.autograd.Function)


def call(entry: Any, args: list[Any]) -> Any:
    apply = getattr(entry, "apply", None)
    if apply is None:
        return entry(*args)
    return apply(*args)


def _forward(entry: Any, args: list[Any]) -> tuple[Any, list[torch.Tensor], dict]:
    """Run forward once, noting dtypes, in-place changes of inputs and a missing grad_fn."""
    before = [_clone(_detach(a)) if isinstance(a, torch.Tensor) else None for a in args]
    out = call(entry, args)
    outs = I.tensors_of(out)
    if not outs:
        raise TypeError(f"forward returned {type(out).__name__}, not a tensor")
    changed = []
    for i, (a, b) in enumerate(zip(args, before)):
        if b is not None and a.shape == b.shape and not _equal(_detach(a).nan_to_num(), b.nan_to_num()):
            changed.append(i)
    info = {
        "out_dtypes": [str(o.dtype).replace("torch.", "") for o in outs],
        "out_shapes": [list(o.shape) for o in outs],
        "changed_inputs": changed,
        "no_grad_fn": [i for i, o in enumerate(outs) if o.grad_fn is None],
    }
    return out, outs, info


def check_gradcheck(entry: Any, args: list[Any], eps: float, second_order: bool, full: bool = False) -> dict:
    """Fast mode (default): one random projection u'Jv per input, analytical vs numerical.

    Full mode: whole Jacobians, to find the element that is wrong once fast mode has failed.
    """
    diff = I.differentiable(args)
    _, outs, info = _forward(entry, args)
    data: dict = {"info": info, "inputs": [I.plain(args[i]) for i in diff], "diff": diff}
    if info["no_grad_fn"] or info["changed_inputs"]:
        return data
    if second_order:
        vs = I.grad_outputs_for(outs, 3)
        fn = lambda *xs: _first_grads(entry, args, diff, xs, vs)  # noqa: E731
    else:
        fn = lambda *xs: _outputs(entry, args, diff, xs)  # noqa: E731
    xs = [args[i] for i in diff]
    if full:
        data["analytical"], data["numerical"] = _jacobians(fn, xs, eps)
    else:
        data["projections"] = _projections(fn, xs, eps)
    return data


def _projections(fn, xs: list[torch.Tensor], eps: float) -> list[list[float]]:
    """[analytical, numerical] of u' J_j v_j for each input j, with seeded random u and v_j."""
    gen = torch.Generator().manual_seed(12345)
    xs = [_detach(x).requires_grad_(True) for x in xs]
    y = fn(*xs)
    u = torch.rand(y.shape, generator=gen, dtype=torch.float64).to(y.dtype) * 2 - 1
    vjp = _grad(y, xs, grad_outputs=u, allow_unused=True) if y.requires_grad else [None] * len(xs)
    out = []
    for j, x in enumerate(xs):
        v = torch.rand(x.shape, generator=gen, dtype=torch.float64).to(x.dtype) * 2 - 1
        analytical = float((vjp[j] * v).sum()) if vjp[j] is not None else 0.0
        plus = [_detach(t).requires_grad_(True) for t in xs]
        minus = [_detach(t).requires_grad_(True) for t in xs]
        plus[j] = _detach(x + eps * v).requires_grad_(True)
        minus[j] = _detach(x - eps * v).requires_grad_(True)
        numerical = float(((_detach(fn(*plus)) - _detach(fn(*minus))) * u).sum() / (2 * eps))
        out.append([analytical, numerical])
    return out


def _substitute(args: list[Any], diff: list[int], xs: tuple) -> list[Any]:
    values = list(args)
    for i, x in zip(diff, xs):
        values[i] = x
    return values


def _outputs(entry, args, diff, xs) -> torch.Tensor:
    outs = I.tensors_of(call(entry, _substitute(args, diff, xs)))
    return torch.cat([o.reshape(-1) for o in outs])


def _first_grads(entry, args, diff, xs, vs) -> torch.Tensor:
    outs = I.tensors_of(call(entry, _substitute(args, diff, xs)))
    grads = _grad(outs, list(xs), grad_outputs=vs, create_graph=True, allow_unused=True)
    parts = [g.reshape(-1) if g is not None else torch.zeros(x.numel(), dtype=x.dtype) for g, x in zip(grads, xs)]
    return torch.cat(parts)


def _jacobians(fn, xs: list[torch.Tensor], eps: float) -> tuple[list[dict], list[dict]]:
    """Analytical (autograd through the learner's backward) and numerical (central differences)."""
    xs = [_detach(x).requires_grad_(True) for x in xs]
    y = fn(*xs)
    analytical = [torch.zeros(y.numel(), x.numel(), dtype=torch.float64) for x in xs]
    # a y with no graph (e.g. a backward that detached its inputs) has an analytical Jacobian of zero
    for k in range(y.numel() if y.requires_grad else 0):
        grads = _grad(y[k], xs, retain_graph=True, allow_unused=True)
        for j, g in enumerate(grads):
            if g is not None:
                analytical[j][k] = g.reshape(-1).to(torch.float64)
    numerical = []
    for j, x in enumerate(xs):
        cols = torch.zeros(y.numel(), x.numel(), dtype=torch.float64)
        for e in range(x.numel()):
            plus, minus = [_clone(_detach(v)) for v in xs], [_clone(_detach(v)) for v in xs]
            plus[j].view(-1)[e] += eps
            minus[j].view(-1)[e] -= eps
            plus = [p.requires_grad_(True) for p in plus]
            minus = [m.requires_grad_(True) for m in minus]
            f_plus, f_minus = _detach(fn(*plus)), _detach(fn(*minus))
            cols[:, e] = ((f_plus - f_minus) / (2 * eps)).to(torch.float64)
        numerical.append(cols)
    return [I.plain(a) for a in analytical], [I.plain(n) for n in numerical]


def check_reference(entry: Any, args: list[Any], seed: int, want_grads: bool) -> dict:
    diff = I.differentiable(args)
    _, outs, info = _forward(entry, args)
    data: dict = {"info": info, "outputs": [I.plain(o) for o in outs]}
    if want_grads and diff and not info["no_grad_fn"]:
        vs = I.grad_outputs_for(outs, seed)
        grads = _grad(outs, [args[i] for i in diff], grad_outputs=vs, allow_unused=True)
        data["grads"] = [I.plain(g) if g is not None else None for g in grads]
    return data


def check_function(entry: Any, helpers: Any, name: str) -> dict:
    test = getattr(helpers, name, None)
    if test is None:
        raise LookupError(f"the exercise's checks.py has no test function {name!r}")
    try:
        test(entry)
    except AssertionError as exc:
        return {"ok": False, "message": str(exc) or "an assertion failed"}
    return {"ok": True}
