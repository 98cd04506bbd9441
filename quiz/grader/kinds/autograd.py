"""Autograd Functions: the learner side measures raw outputs and vector-Jacobian products for inputs and
directions chosen from the check's seed; the judge recomputes both with the reference (the exercise's
solution, a torch op or a checks.py function) and compares."""

from __future__ import annotations

from typing import Any

import torch

from quiz.grader import inputs as I
from quiz.grader import verdict
from quiz.grader import wire
from quiz.grader.results import FAIL, PASS, TestResult
from quiz.grader.say import say

KINDS = ("gradcheck", "gradgradcheck", "reference", "saved", "backward_contract")
UPSTREAM_ROUNDS = 2  # backward twice through one graph, with different upstream gradients


# ---------------------------------------------------------------- learner side (runs in the fenced child)


def structure(entry: Any) -> dict:
    is_function = isinstance(entry, type) and issubclass(entry, torch.autograd.Function)
    replaced = False
    if is_function:
        for cls in entry.__mro__:
            if cls is torch.autograd.Function:
                break
            if "apply" in vars(cls):
                replaced = True
    return {"is_function": is_function, "apply_replaced": replaced, "hint": style_hint(entry)[:400]}


def style_hint(entry: Any) -> str:
    """A note when forward's parameters do not fit the Function style the class is written in."""
    import inspect

    if not (isinstance(entry, type) and issubclass(entry, torch.autograd.Function)):
        return ""
    overrides = any(
        "setup_context" in vars(cls)
        for cls in entry.__mro__
        if cls is not torch.autograd.Function and cls.__module__ != "torch.autograd.function"
    )
    try:
        params = list(inspect.signature(entry.forward).parameters)
    except (TypeError, ValueError):
        return ""
    if overrides and params[:1] == ["ctx"]:
        return say(
            " Your class defines setup_context, so forward must not take ctx: forward(x, ...) only computes, "
            "and setup_context(ctx, inputs, output) saves what backward needs.",
            " 你的类定义了 setup_context，所以 forward 不能接收 ctx：forward(x, ...) 只负责计算，"
            "由 setup_context(ctx, inputs, output) 保存 backward 需要的东西。",
        )
    if not overrides and params[:1] != ["ctx"]:
        return say(
            " forward has no ctx parameter, but the class defines no setup_context: write forward(ctx, ...), "
            "or add a setup_context(ctx, inputs, output).",
            " forward 没有 ctx 参数，而类里也没有定义 setup_context：要么写成 forward(ctx, ...)，"
            "要么加一个 setup_context(ctx, inputs, output)。",
        )
    return ""


def call(entry: Any, args: list[Any]) -> Any:
    if isinstance(entry, type) and issubclass(entry, torch.autograd.Function):
        return entry.apply(*args)
    return entry(*args)


def vjp(
    outs: list[torch.Tensor], xs: list[torch.Tensor], us: list[torch.Tensor], keep: bool
) -> list[torch.Tensor | None]:
    """u'J for each x, through `backward` and `.grad` (what reentrant checkpointing code accepts)."""
    pairs = [(o, u) for o, u in zip(outs, us) if o.requires_grad]
    for x in xs:
        x.grad = None
    if pairs:
        torch.autograd.backward([o for o, _ in pairs], grad_tensors=[u for _, u in pairs], retain_graph=keep)
    grads = [x.grad for x in xs]
    for x in xs:
        x.grad = None
    return grads


def upstream(outs: list[torch.Tensor], seed: int, round_: int) -> list[torch.Tensor]:
    return I.grad_outputs_for(outs, seed * 31 + round_ + 1)


def second_directions(xs: list[torch.Tensor], seed: int) -> list[torch.Tensor]:
    return I.grad_outputs_for(xs, seed * 31 + 97)


def _held(node: Any, args: list[Any], outs: list[torch.Tensor]) -> list[dict]:
    """Every tensor the backward node keeps: saved tensors and tensors on ctx attributes."""
    found: list[tuple[str, torch.Tensor]] = []
    try:
        found += [(f"saved_tensors[{i}]", t) for i, t in enumerate(node.saved_tensors) if isinstance(t, torch.Tensor)]
    except (RuntimeError, AttributeError):
        pass
    try:
        attrs = dict(vars(node))
    except TypeError:
        attrs = {}
    for name, value in attrs.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        for j, v in enumerate(values):
            if isinstance(v, torch.Tensor):
                found.append((f"ctx.{name}" + (f"[{j}]" if values is value else ""), v))
    ptrs = {a.untyped_storage().data_ptr(): i for i, a in enumerate(args) if isinstance(a, torch.Tensor)}
    out_ptrs = {o.untyped_storage().data_ptr(): i for i, o in enumerate(outs)}
    return [
        {
            "where": where,
            "dtype": str(t.dtype).replace("torch.", ""),
            "shape": list(t.shape),
            "nbytes": t.numel() * t.element_size(),
            "alias_of": ptrs.get(t.untyped_storage().data_ptr()),
            "output_of": out_ptrs.get(t.untyped_storage().data_ptr()),
        }
        for where, t in found
    ]


def measure(entry: Any, check: dict, seed: int, helpers: Any) -> dict:
    args = I.build_args(check.get("args", []), seed, helpers)
    shape = structure(entry)
    data: dict = {"structure": shape}
    if not shape["is_function"] and check.get("autograd_function", True):
        return data
    out = call(entry, args)
    outs = I.tensors_of(out)
    if not outs:
        raise TypeError(
            say(
                f"forward returned {type(out).__name__}, not a tensor",
                f"forward 返回的是 {type(out).__name__}，不是 tensor",
            )
        )
    node = next((o.grad_fn for o in outs if o.grad_fn is not None), None)
    data["outputs"] = [wire.tensor_to_wire(o) for o in outs]
    data["inputs_after"] = [wire.tensor_to_wire(a) if isinstance(a, torch.Tensor) else None for a in args]
    data["grad_fn"] = {
        "missing": [i for i, o in enumerate(outs) if o.grad_fn is None],
        "name": type(node).__name__ if node is not None else None,
        "is_entry": node is not None and getattr(type(node), "_forward_cls", None) is entry,
    }
    kind = check["kind"]
    diff = I.differentiable(args)
    xs = [args[i] for i in diff]
    if kind == "saved":
        data["held"] = _held(node, args, outs) if node is not None else []
        return data
    if kind == "backward_contract":
        raw = node.apply(*upstream(outs, seed, 0)) if node is not None else None  # type: ignore[attr-defined]
        items = list(raw) if isinstance(raw, tuple) else [raw]
        data["returned"] = [
            None if r is None else list(r.shape) if isinstance(r, torch.Tensor) else type(r).__name__[:40]
            for r in items
        ]
        return data
    if not diff or not check.get("grads", True) or node is None:
        return data
    if kind == "gradgradcheck":
        first = torch.autograd.grad(
            outs, xs, grad_outputs=upstream(outs, seed, 0), create_graph=True, allow_unused=True
        )
        live = [(g, w) for g, w in zip(first, second_directions(xs, seed)) if g is not None and g.requires_grad]
        second: list[torch.Tensor | None] = [None] * len(xs)
        if live:
            second = list(
                torch.autograd.grad([g for g, _ in live], xs, grad_outputs=[w for _, w in live], allow_unused=True)
            )
        data["first"] = [wire.tensor_to_wire(g) if g is not None else None for g in first]
        data["second"] = [wire.tensor_to_wire(g) if g is not None else None for g in second]
        return data
    rounds = []
    for r in range(UPSTREAM_ROUNDS):
        grads = vjp(outs, xs, upstream(outs, seed, r), keep=r < UPSTREAM_ROUNDS - 1)
        rounds.append([wire.tensor_to_wire(g) if g is not None else None for g in grads])
    data["vjps"] = rounds
    return data


# ---------------------------------------------------------------- trusted side (the judge process)


class Malformed(ValueError):
    """The child's report does not have the form this kind produces."""


def _expect_keys(data: Any, required: set[str], optional: frozenset[str] | set[str] = frozenset()) -> dict:
    if type(data) is not dict:
        raise Malformed("the report is not a mapping")
    keys = set(data)
    if not required <= keys or not keys <= required | optional:
        raise Malformed(f"the report has fields {sorted(keys)}")
    return data


def _tensor_list(items: Any, count: int, what: str, allow_none: bool = False) -> list[Any]:
    """Tensors rebuilt from wire data (None only where `allow_none`)."""
    if type(items) is not list or len(items) != count:
        raise Malformed(f"{what}: expected {count} value(s)")
    out: list[Any] = []
    for item in items:
        if item is None and allow_none:
            out.append(None)
        else:
            out.append(wire.tensor_from_wire(item))
    return out


def judge(check: dict, seed: int, data: Any, ctx: Any) -> TestResult:
    name = ctx.name
    kind = check["kind"]
    arg_names = [a.get("name") or "" for a in check.get("args", [])]
    name_of = lambda i: verdict.arg_name(arg_names, i)  # noqa: E731
    data = _expect_keys(
        data, {"structure"}, {"outputs", "inputs_after", "grad_fn", "held", "vjps", "first", "second", "returned"}
    )
    shape = _expect_keys(data["structure"], {"is_function", "apply_replaced", "hint"})
    result = _judge_checked(name, kind, check, seed, data, shape, ctx, name_of)
    if result.status == FAIL and type(shape["hint"]) is str and shape["hint"]:
        result.message += shape["hint"]
    return result


def _judge_checked(name, kind, check, seed, data, shape, ctx, name_of) -> TestResult:
    if ctx.autograd_function and shape["is_function"] is not True:
        return TestResult(
            name,
            FAIL,
            say(
                f"{ctx.entry} must be a class that subclasses torch.autograd.Function, used through {ctx.entry}.apply(...); "
                "calling its forward directly bypasses your backward, since autograd then records the ops inside forward instead.",
                f"{ctx.entry} 必须是继承 torch.autograd.Function 的类，并通过 {ctx.entry}.apply(...) 调用；"
                "直接调用它的 forward 会绕过你的 backward，因为这时 autograd 记录的是 forward 内部的各个算子。",
            ),
        )
    if shape["apply_replaced"] is not False:
        return TestResult(
            name,
            FAIL,
            say(
                f"{ctx.entry} defines its own `apply`; leave apply to torch.autograd.Function, which runs your forward "
                "and connects your backward to the graph.",
                f"{ctx.entry} 自己定义了 `apply`；apply 应交给 torch.autograd.Function，由它运行你的 forward "
                "并把你的 backward 接入计算图。",
            ),
        )
    args = I.build_args(check.get("args", []), seed, ctx.helpers)
    diff = I.differentiable(args)
    outs = _tensor_list(data.get("outputs"), len(data.get("outputs") or []) or 1, "outputs")
    after = data.get("inputs_after")
    if type(after) is not list or len(after) != len(args):
        raise Malformed("inputs_after: one entry per argument")
    for i, (a, got) in enumerate(zip(args, after)):
        if isinstance(a, torch.Tensor):
            t = wire.tensor_from_wire(got)
            if t.shape != a.shape or not torch.equal(t.to(a.dtype).nan_to_num(), a.detach().nan_to_num()):
                return TestResult(
                    name,
                    FAIL,
                    say(
                        f"forward changed {name_of(i)} in place; leave inputs untouched and compute a new tensor.",
                        f"forward 原地修改了 {name_of(i)}；不要改动输入，请计算出一个新 tensor。",
                    ),
                )
    info = _expect_keys(data.get("grad_fn"), {"missing", "name", "is_entry"})
    float_inputs = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.is_floating_point()]
    ref = ctx.reference(check)
    ref_args = I.build_args(check.get("args", []), seed, ctx.helpers)
    ref_outs = I.tensors_of(call(ref, ref_args))
    if len(outs) != len(ref_outs):
        return TestResult(
            name,
            FAIL,
            say(
                f"forward returned {len(outs)} tensor(s); expected {len(ref_outs)}",
                f"forward 返回了 {len(outs)} 个 tensor，应为 {len(ref_outs)} 个",
            ),
        )
    if float_inputs and all(d == torch.float64 for d in float_inputs):
        low = [
            str(o.dtype).replace("torch.", "")
            for o, r in zip(outs, ref_outs)
            if r.dtype == torch.float64 and o.dtype != torch.float64
        ]
        if low:
            return TestResult(
                name,
                FAIL,
                say(
                    f"forward returned {', '.join(low)} for float64 inputs; keep the input dtype: finite differences and "
                    "exact comparisons need float64.",
                    f"输入是 float64，forward 却返回了 {', '.join(low)}；请保持输入的 dtype：有限差分和精确比较都需要 float64。",
                ),
            )
    atol, rtol = float(check.get("atol", 1e-6)), float(check.get("rtol", 1e-5))
    for j, (got, exp) in enumerate(zip(outs, ref_outs)):
        problem = verdict.compare(
            say(f"output {j}", f"第 {j} 个输出"), say("forward output", "forward 输出"), exp.detach(), got, atol, rtol
        )
        if problem:
            return TestResult(name, FAIL, problem + ctx.hint_for_output(check, args, got))
    structural = kind in ("saved", "backward_contract")
    wants_grads = not structural and check.get("grads", True) and bool(diff)
    if wants_grads or structural:
        if info["missing"] and len(info["missing"]) == len(outs):
            return TestResult(name, FAIL, verdict.no_grad_fn())
        if ctx.autograd_function and info["is_entry"] is not True:
            return TestResult(
                name,
                FAIL,
                say(
                    f"the output's grad_fn is {info['name']}, not the backward of {ctx.entry}: autograd recorded the ops "
                    f"inside forward instead of your Function. Call {ctx.entry}.apply(...) and return the result of your own "
                    "computation (do not call another Function's apply or a torch op that already has a backward on the result).",
                    f"输出的 grad_fn 是 {info['name']}，不是 {ctx.entry} 的 backward：autograd 记录的是 forward 内部的算子，"
                    f"而不是你的 Function。请调用 {ctx.entry}.apply(...)，并返回你自己计算出的结果"
                    "（不要对结果再调用别的 Function 的 apply，也不要套一个本身带 backward 的 torch 算子）。",
                ),
            )
    if kind == "saved":
        return _judge_saved(name, check, data.get("held"), args, ctx)
    if kind == "backward_contract":
        return _judge_contract(name, data.get("returned"), args, name_of)
    if not wants_grads:
        return TestResult(name, PASS, say("output matches the reference", "输出与参考实现一致"))
    xs = [ref_args[i] for i in diff]
    if kind == "gradgradcheck":
        return _judge_second(name, data, ref_outs, xs, diff, seed, name_of, atol, rtol)
    rounds = data.get("vjps")
    if type(rounds) is not list or len(rounds) != UPSTREAM_ROUNDS:
        raise Malformed("vjps: one list per upstream gradient")
    for r in range(UPSTREAM_ROUNDS):
        expected = vjp(ref_outs, xs, upstream(ref_outs, seed, r), keep=r < UPSTREAM_ROUNDS - 1)
        got = _tensor_list(rounds[r], len(xs), "vjps", allow_none=True)
        for i, want, g in zip(diff, expected, got):
            if want is None:
                continue
            if g is None:
                return TestResult(
                    name,
                    FAIL,
                    say(
                        f"no gradient reached {name_of(i)}: backward returned None for it",
                        f"没有梯度传到 {name_of(i)}：backward 对它返回了 None",
                    ),
                )
            label = say(f"gradient for {name_of(i)}", f"{name_of(i)} 的梯度")
            problem = verdict.compare(label, label, want.detach(), g, atol, rtol)
            if problem and r > 0:
                return TestResult(
                    name,
                    FAIL,
                    say(
                        "the first backward was right but a second backward through the same graph (retain_graph=True, a "
                        f"different upstream gradient) was wrong: {problem}. Your backward changes a tensor kept on ctx in "
                        "place, so it is not reentrant; compute on new tensors (x * s, not x.mul_(s)).",
                        "第一次 backward 正确，但在同一张图上的第二次 backward（retain_graph=True，换一个上游梯度）"
                        f"出错了：{problem}。你的 backward 原地修改了保存在 ctx 上的 tensor，因此不可重入；"
                        "请在新 tensor 上计算（用 x * s，不要用 x.mul_(s)）。",
                    ),
                )
            if problem:
                return TestResult(name, FAIL, problem + verdict.gradient_hint(want.detach(), g, atol, rtol))
    return TestResult(
        name,
        PASS,
        say(
            "output and gradients match the reference (two upstream gradients)",
            "输出和梯度都与参考实现一致（两个上游梯度）",
        ),
    )


def _judge_second(name, data, ref_outs, xs, diff, seed, name_of, atol, rtol) -> TestResult:
    first = torch.autograd.grad(
        ref_outs, xs, grad_outputs=upstream(ref_outs, seed, 0), create_graph=True, allow_unused=True
    )
    live = [(g, w) for g, w in zip(first, second_directions(xs, seed)) if g is not None and g.requires_grad]
    expected = [None] * len(xs)
    if live:
        expected = list(
            torch.autograd.grad([g for g, _ in live], xs, grad_outputs=[w for _, w in live], allow_unused=True)
        )
    got_first = _tensor_list(data.get("first"), len(xs), "first", allow_none=True)
    got_second = _tensor_list(data.get("second"), len(xs), "second", allow_none=True)
    for i, exp, g in zip(diff, first, got_first):
        if exp is not None and g is not None:
            label = say(f"gradient for {name_of(i)}", f"{name_of(i)} 的梯度")
            problem = verdict.compare(label, label, exp.detach(), g, atol, rtol)
            if problem:
                return TestResult(name, FAIL, problem)
    for i, exp, g in zip(diff, expected, got_second):
        exp_t = exp.detach() if exp is not None else torch.zeros_like(xs[diff.index(i)]).detach()
        got_t = g if g is not None else torch.zeros_like(exp_t)
        problem = verdict.compare(
            say(f"second-order gradient for {name_of(i)}", f"{name_of(i)} 的二阶梯度"),
            say(f"gradient of your backward for {name_of(i)}", f"你的 backward 对 {name_of(i)} 的梯度"),
            exp_t,
            got_t,
            atol,
            rtol,
        )
        if problem:
            hint = ""
            if g is None or float(got_t.abs().max()) == 0.0:
                hint = say(
                    " Your backward's result has no graph to differentiate: compute it from differentiable ops on the "
                    "saved tensors (no .detach(), no torch.no_grad(), no .data).",
                    " 你的 backward 的结果没有可求导的计算图：请用可微的算子基于保存的 tensor 来计算"
                    "（不要 .detach()，不要 torch.no_grad()，不要用 .data）。",
                )
            return TestResult(name, FAIL, problem + hint)
    return TestResult(name, PASS, say("second-order gradients match the reference", "二阶梯度与参考实现一致"))


def _judge_saved(name, check, held, args, ctx) -> TestResult:
    if type(held) is not list:
        raise Malformed("held: a list")
    items = [_expect_keys(h, {"where", "dtype", "shape", "nbytes", "alias_of", "output_of"}) for h in held]
    fn = getattr(ctx.helpers, check.get("function") or "", None)
    if fn is None:
        raise LookupError(
            say(
                f"checks.py has no function {check.get('function')!r}",
                f"checks.py 里没有函数 {check.get('function')!r}",
            )
        )
    try:
        fn(items, args)
    except AssertionError as exc:
        return TestResult(
            name,
            FAIL,
            str(exc) or say("what backward keeps is not what the exercise asks", "backward 保存的东西不符合题目要求"),
        )
    return TestResult(
        name, PASS, say("backward keeps only what the exercise allows", "backward 只保存了题目允许的东西")
    )


def _judge_contract(name, returned, args, name_of) -> TestResult:
    """backward returns one value per forward input: a gradient of the input's shape where
    ctx.needs_input_grad is True, None where it is False and for every non-tensor input."""
    if type(returned) is not list:
        raise Malformed("returned: a list")
    needs = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
    if len(returned) != len(args):
        return TestResult(
            name,
            FAIL,
            say(
                f"backward returned {len(returned)} value(s) but forward takes {len(args)} input(s) after ctx: return one "
                "per input, None for inputs that need no gradient.",
                f"backward 返回了 {len(returned)} 个值，但 forward 在 ctx 之后有 {len(args)} 个输入："
                "每个输入返回一个值，不需要梯度的输入返回 None。",
            ),
        )
    for i, (a, need, got) in enumerate(zip(args, needs, returned)):
        if not isinstance(a, torch.Tensor) and got is not None:
            return TestResult(
                name,
                FAIL,
                say(
                    f"{name_of(i)} is {'None' if a is None else 'not a tensor'}, so backward must return None in its place",
                    f"{name_of(i)} {'是 None' if a is None else '不是 tensor'}，所以 backward 在它的位置上必须返回 None",
                ),
            )
        if isinstance(a, torch.Tensor) and not need and got is not None:
            return TestResult(
                name,
                FAIL,
                say(
                    f"with ctx.needs_input_grad = {needs}, the gradient for {name_of(i)} should be None (skip computing it), "
                    "got a tensor",
                    f"ctx.needs_input_grad = {needs} 时，{name_of(i)} 的梯度应为 None（跳过不算），实际返回了一个 tensor",
                ),
            )
        if need and got is None:
            return TestResult(
                name,
                FAIL,
                say(
                    f"with ctx.needs_input_grad = {needs}, the gradient for {name_of(i)} is needed but backward returned None",
                    f"ctx.needs_input_grad = {needs} 时，{name_of(i)} 需要梯度，但 backward 返回了 None",
                ),
            )
        if need and got != list(a.shape):
            return TestResult(
                name,
                FAIL,
                say(
                    f"the gradient for {name_of(i)} has shape {got}; the input has shape {list(a.shape)}",
                    f"{name_of(i)} 的梯度形状是 {got}，而该输入的形状是 {list(a.shape)}",
                ),
            )
    return TestResult(
        name,
        PASS,
        say("backward returns a gradient exactly where one is needed", "backward 恰好在需要梯度的位置返回了梯度"),
    )
