"""Triton kernels: the learner side calls the entry (a Python wrapper that launches the learner's
`@triton.jit` kernel) on seeded inputs and reports its outputs and how many kernels from the learner's file
it launched; the judge rebuilds the inputs, computes the torch reference and compares."""

from __future__ import annotations

import os
from typing import Any

import torch

from quiz.grader import inputs as I
from quiz.grader import verdict, wire
from quiz.grader.results import FAIL, PASS, TestResult
from quiz.grader.say import say
from quiz.grader.triton_support import INSTALL_HINT, install_hint, uses_kernels  # noqa: F401 - used by the learner half

KINDS = ("kernel",)
NO_LAUNCH = (
    "your wrapper launched no @triton.jit kernel defined in your file, so the work was not done in a kernel "
    "(calling a torch op such as torch.softmax does not count): launch it as kernel[grid](...)"
)
NO_LAUNCH_ZH = (
    "你的 wrapper 没有 launch 你文件里定义的任何 @triton.jit kernel，所以计算并不是在 kernel 里完成的"
    "（调用 torch.softmax 之类的 torch 算子不算数）：请用 kernel[grid](...) 来 launch 它"
)

_launches: list[int] = [0]


# ---------------------------------------------------------------- learner side (runs in the fenced child)


def prepare(filename: str, device: str, scratch: str) -> None:
    """Before the learner's file runs: the interpreter on a CPU (Triton reads TRITON_INTERPRET when a
    kernel is decorated), every cache in the scratch folder, and a counter of launches of kernels whose
    source is the learner's file. The counter is evidence against an honest shortcut, not a fence."""
    os.environ["TRITON_INTERPRET"] = "0" if device == "cuda" else "1"
    os.environ["TRITON_HOME"] = scratch
    os.environ["TRITON_CACHE_DIR"] = os.path.join(scratch, "triton-cache")
    from triton.runtime import interpreter, jit

    for cls in (jit.JITFunction, interpreter.InterpretedFunction):
        original = cls.run

        def run(self, *args, _original=original, **kwargs):
            fn = getattr(self, "fn", None)
            if getattr(getattr(fn, "__code__", None), "co_filename", None) == filename:
                _launches[0] += 1
            return _original(self, *args, **kwargs)

        cls.run = run
    if device != "cuda":
        _check_bounds(interpreter)


_ranges: list[tuple[int, int]] = []


def _storages(value: Any, found: list[tuple[int, int]], depth: int = 0) -> None:
    if isinstance(value, torch.Tensor):
        storage = value.untyped_storage()
        found.append((storage.data_ptr(), storage.data_ptr() + storage.nbytes()))
    elif isinstance(value, (tuple, list)) and depth < 4:
        for v in value:
            _storages(v, found, depth + 1)


def _check_bounds(interpreter: Any) -> None:
    """In the interpreter a load or store outside every tensor argument reads or corrupts the process's
    own heap (a crash, or a pass by luck); stop it at the offending tl.load/tl.store with a message."""
    import numpy as np

    executor: Any = getattr(interpreter, "GridExecutor", None)
    builder: Any = getattr(interpreter, "InterpreterBuilder", None)
    needed = [
        (executor, "_init_args_hst"),
        (builder, "create_masked_load"),
        (builder, "create_masked_store"),
        (interpreter, "_get_np_dtype"),
    ]
    if not all(hasattr(owner, name) for owner, name in needed):
        return  # a Triton whose interpreter is laid out differently: graded on values alone
    init = executor._init_args_hst

    def init_args(self, args_dev, kwargs):
        args_hst, kwargs_hst = init(self, args_dev, kwargs)
        found: list[tuple[int, int]] = []
        _storages(list(args_hst) + list(kwargs_hst.values()), found)
        _ranges[:] = found
        return args_hst, kwargs_hst

    def inside(ptrs, mask, what: tuple[str, str]) -> None:
        itemsize = np.dtype(interpreter._get_np_dtype(ptrs.get_element_ty())).itemsize
        addr = np.asarray(ptrs.data, dtype=np.uint64)
        if mask is not None:
            addr = addr[np.broadcast_to(np.asarray(mask.data, dtype=bool), addr.shape)]
        addr = addr.reshape(-1)
        ok = np.zeros(addr.shape, dtype=bool)
        for start, end in _ranges:
            ok |= (addr >= start) & (addr + itemsize <= end)
        if not ok.all():
            bad = int(addr[~ok][0])
            ends = [end for _, end in _ranges if end <= bad]
            first = (bad - max(ends)) // itemsize + 1 if ends else 0
            past = (
                say(
                    f", the first {first} element(s) past the end of a tensor",
                    f"，第一个越界元素位于某个 tensor 末尾之后第 {first} 个",
                )
                if ends
                else ""
            )
            lanes = int((~ok).sum())
            raise IndexError(
                say(
                    f"{what[0]} outside every tensor passed to the kernel ({lanes} of {addr.size} lanes{past}): "
                    "a block that runs past the end needs mask=offs < n on tl.load and tl.store (and the mask must "
                    "cover every dimension); otherwise look for a wrong stride or offset",
                    f"{what[1]}超出了传给 kernel 的所有 tensor 的范围（{addr.size} 个 lane 中有 {lanes} 个越界{past}）："
                    "如果 block 会越过末尾，tl.load 和 tl.store 都需要 mask=offs < n（而且 mask 必须覆盖每一个维度）；"
                    "否则请检查 stride 或 offset 是否写错",
                )
            )

    load, store = builder.create_masked_load, builder.create_masked_store

    def masked_load(self, ptrs, mask, other, cache_policy, is_volatile):
        inside(ptrs, mask, ("tl.load read memory", "tl.load 读取的内存"))
        return load(self, ptrs, mask, other, cache_policy, is_volatile)

    def masked_store(self, ptrs, value, mask, cache_policy):
        inside(ptrs, mask, ("tl.store wrote memory", "tl.store 写入的内存"))
        return store(self, ptrs, value, mask, cache_policy)

    executor._init_args_hst = init_args
    builder.create_masked_load, builder.create_masked_store = masked_load, masked_store


def measure(entry: Any, check: dict, seed: int, helpers: Any) -> dict:
    device = check.get("device", "cpu")
    args = [
        a.to(device) if isinstance(a, torch.Tensor) else a for a in I.build_args(check.get("args", []), seed, helpers)
    ]
    before = _launches[0]
    try:
        out = entry(*args)
    except Exception as exc:
        cause = exc.__cause__
        if type(exc).__name__ == "InterpreterError" and isinstance(cause, Exception):
            raise cause.with_traceback(cause.__traceback__) from None  # what the kernel itself raised
        raise
    if device == "cuda":
        torch.cuda.synchronize()
    outs = I.tensors_of(out)
    if not outs:
        raise TypeError(
            say(
                f"your wrapper returned {type(out).__name__}, not a tensor",
                f"你的 wrapper 返回了 {type(out).__name__}，而不是 tensor",
            )
        )
    return {"outputs": [wire.tensor_to_wire(o) for o in outs], "launches": _launches[0] - before}


# ---------------------------------------------------------------- trusted side (the judge)


def _shapes(args: list[Any]) -> str:
    return say(" and ", " 和 ").join(str(tuple(a.shape)) for a in args if isinstance(a, torch.Tensor))


def _where(exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str:
    """Which rows/columns are wrong: the last ones only points at a missing mask or a block-size edge."""
    bad = ~torch.isclose(got.to(torch.float64), exp.to(torch.float64), atol=atol, rtol=rtol, equal_nan=True)
    if bad.dim() == 0 or not bool(bad.any()):
        return ""
    notes = []
    if bad.all():
        notes.append(say("every element is wrong", "所有元素都是错的"))
    for dim in range(bad.dim()):
        hit = bad.transpose(0, dim).reshape(bad.shape[dim], -1).any(dim=1).nonzero().flatten()
        first, size = int(hit[0]), bad.shape[dim]
        tail = len(hit) >= (size - first) / 2 and int(hit[-1]) == size - 1  # the far end is what is wrong
        if 0 < first and size > 1 and tail and not bad.all():
            if dim == bad.dim() - 1 and bad.dim() > 1:
                notes.append(
                    say(
                        f"columns from {first} of {size} are wrong, earlier ones are right",
                        f"{size} 列中从第 {first} 列起是错的，之前的列是对的",
                    )
                )
            elif dim == 0 and bad.dim() > 1:
                notes.append(
                    say(
                        f"rows from {first} of {size} are wrong, earlier ones are right",
                        f"{size} 行中从第 {first} 行起是错的，之前的行是对的",
                    )
                )
            else:
                notes.append(
                    say(
                        f"indices of dim {dim} from {first} of {size} are wrong, earlier ones are right",
                        f"第 {dim} 维的 {size} 个下标中从 {first} 起是错的，之前的是对的",
                    )
                )
    nonfinite = int((~torch.isfinite(got) & torch.isfinite(exp)).sum())
    if nonfinite:
        notes.append(
            say(
                f"{nonfinite} element(s) are NaN or inf where the answer is finite (an overflow, a value "
                "read through a wrong offset, or an element never written)",
                f"有 {nonfinite} 个元素是 NaN 或 inf，而正确答案是有限值（可能是溢出、通过错误的 offset "
                "读到的值，或者某个元素从未被写入）",
            )
        )
    sep = say("; ", "；")
    return (sep + sep.join(notes)) if notes else ""


def _compare(label: tuple[str, str], exp: torch.Tensor, got: torch.Tensor, atol: float, rtol: float) -> str | None:
    if list(got.shape) != list(exp.shape):
        return say(
            f"{label[0]} has shape {list(got.shape)}; expected {list(exp.shape)}",
            f"{label[1]}的形状是 {list(got.shape)}；应为 {list(exp.shape)}",
        )
    bad = verdict.worst_mismatch(exp, got, atol, rtol)
    if bad is None:
        return None
    k, size = bad
    e, g = float(exp.reshape(-1)[k]), float(got.reshape(-1)[k])
    where = verdict.index(k, list(exp.shape))
    return say(
        f"{label[0]} at {where} should be {verdict.fmt(e)} but is {verdict.fmt(g)}; largest difference "
        f"{verdict.fmt(size)}{_where(exp, got, atol, rtol)}",
        f"{label[1]}在 {where} 处应为 {verdict.fmt(e)}，实际是 {verdict.fmt(g)}；最大误差 "
        f"{verdict.fmt(size)}{_where(exp, got, atol, rtol)}",
    )


def judge(check: dict, seed: int, data: Any, ctx: Any) -> TestResult:
    name = ctx.name
    if type(data) is not dict or set(data) != {"outputs", "launches"} or type(data["launches"]) is not int:
        raise wire.WireError("the report has the wrong fields")
    if type(data["outputs"]) is not list:
        raise wire.WireError("outputs: a list")
    got = [wire.tensor_from_wire(t) for t in data["outputs"]]
    args = I.build_args(check.get("args", []), seed, ctx.helpers)
    shapes = _shapes(args)
    if data["launches"] < 1:
        return TestResult(name, FAIL, say(f"inputs {shapes}: {NO_LAUNCH}", f"输入 {shapes}：{NO_LAUNCH_ZH}"))
    wanted = int(check.get("min_launches", 1))
    if data["launches"] < wanted:
        return TestResult(
            name,
            FAIL,
            say(
                f"inputs {shapes}: your wrapper launched your kernels {data['launches']} time(s); "
                f"this exercise needs at least {wanted} launches (one per stage)",
                f"输入 {shapes}：你的 wrapper 一共 launch 了 {data['launches']} 次你的 kernel；"
                f"这道练习至少需要 launch {wanted} 次（每个阶段一次）",
            ),
        )
    expected = ctx.reference(check)(*[a.detach().clone() if isinstance(a, torch.Tensor) else a for a in args])
    exp = I.tensors_of(expected)
    if len(got) != len(exp):
        return TestResult(
            name,
            FAIL,
            say(
                f"inputs {shapes}: your wrapper returned {len(got)} tensor(s); expected {len(exp)}",
                f"输入 {shapes}：你的 wrapper 返回了 {len(got)} 个 tensor；应为 {len(exp)} 个",
            ),
        )
    atol, rtol = float(check.get("atol", 1e-6)), float(check.get("rtol", 1e-5))
    for j, (e, g) in enumerate(zip(exp, got)):
        label = ("the output", "输出") if len(exp) == 1 else (f"output {j}", f"第 {j} 个输出")
        if e.dtype != g.dtype:
            return TestResult(
                name,
                FAIL,
                say(
                    f"inputs {shapes}: {label[0]} has dtype {str(g.dtype)[6:]}; expected {str(e.dtype)[6:]}",
                    f"输入 {shapes}：{label[1]}的 dtype 是 {str(g.dtype)[6:]}；应为 {str(e.dtype)[6:]}",
                ),
            )
        problem = _compare(label, e.detach(), g, atol, rtol)
        if problem:
            hint = ctx.hint_for_output(check, args, got)
            return TestResult(
                name, FAIL, say(f"inputs {shapes}: {problem}.{hint}", f"输入 {shapes}：{problem}。{hint}")
            )
    return TestResult(name, PASS, say("passed", "通过"))
