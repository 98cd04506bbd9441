"""Turn the exceptions that learners' autograd code commonly raises into messages that teach."""

from __future__ import annotations

import re
import traceback

from quiz.grader.say import say


def learner_line(exc: BaseException, filename: str) -> int | None:
    """The last line of the learner's file in the exception's traceback, or None."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def out_of_memory() -> str:
    return say(
        "ran out of memory: the check's memory limit is about 2 GB above the grader's own size.",
        "内存耗尽：这项检查的内存上限大约是评测进程自身大小再加 2 GB。",
    )


ERROR_KINDS = {"SyntaxError", "SystemExit", "MemoryError", "ImportError", "ModuleNotFoundError", "KeyboardInterrupt"}

PATTERNS = [
    (
        re.compile(r"returned an incorrect number of gradients \(expected (\d+), got (\d+)\)"),
        lambda m: say(
            f"backward returned {m[2]} value(s) but forward takes {m[1]} input(s) after ctx: return one gradient "
            "per forward input, in order, and None for inputs that need none (non-tensor arguments such as dim, "
            "eps, scale or a function).",
            f"backward 返回了 {m[2]} 个值，但 forward 在 ctx 之后有 {m[1]} 个输入：每个 forward 输入按顺序对应返回一个梯度，"
            "不需要梯度的输入（dim、eps、scale、函数这类非 tensor 参数）返回 None。",
        ),
    ),
    (
        re.compile(
            r"returned an invalid gradient at index (\d+) - got \[([^\]]*)\] but expected shape compatible with \[([^\]]*)\]"
        ),
        lambda m: say(
            f"the gradient for input {m[1]} has shape [{m[2]}] but that input has shape [{m[3]}]: each gradient "
            "must have its input's shape (sum over dimensions that were broadcast, transpose where needed).",
            f"输入 {m[1]} 的梯度形状是 [{m[2]}]，但该输入的形状是 [{m[3]}]：每个梯度都必须和对应输入同形状"
            "（对被广播的维度求和，需要时做转置）。",
        ),
    ),
    (
        re.compile(r"does not require grad and does not have a grad_fn"),
        lambda m: say(
            "a tensor handed to autograd has no graph behind it: call a Function through .apply(...) (not "
            ".forward) and do not detach its result; when recomputing inside backward, wrap the recomputation "
            "in torch.enable_grad(), since autograd runs backward with grad mode off.",
            "交给 autograd 的 tensor 背后没有计算图：要通过 .apply(...)（而不是 .forward）调用 Function，且不要对结果 detach；"
            "在 backward 里重算时，要把重算包在 torch.enable_grad() 里，因为 autograd 运行 backward 时 grad mode 是关闭的。",
        ),
    ),
    (
        re.compile(r"has been modified by an inplace operation"),
        lambda m: say(
            "a tensor saved for backward was changed in place afterwards; compute on a new tensor "
            "(x * 2, not x.mul_(2)) or save a clone.",
            "为 backward 保存的 tensor 之后被原地修改了；请在新 tensor 上计算（用 x * 2，不要用 x.mul_(2)），或者保存一份 clone。",
        ),
    ),
    (
        re.compile(r"a leaf Variable that requires grad is being used in an in-place operation"),
        lambda m: say(
            "forward changed an input in place; compute the result in a new tensor instead.",
            "forward 原地修改了输入；请把结果算到一个新 tensor 里。",
        ),
    ),
    (
        re.compile(r"forward\(\) missing (\d+) required positional argument"),
        lambda m: say(
            f"forward did not receive all its parameters ({m[1]} missing). Function.apply(...) passes ctx first "
            "and then exactly the inputs given to apply, unless the class defines setup_context: then forward "
            "takes the inputs only (no ctx) and setup_context(ctx, inputs, output) saves what backward needs. "
            "Use one style or the other.",
            f"forward 没有收到全部参数（缺 {m[1]} 个）。Function.apply(...) 先传 ctx，再原样传入给 apply 的输入；"
            "如果类定义了 setup_context，则 forward 只接收输入（没有 ctx），由 setup_context(ctx, inputs, output) "
            "保存 backward 需要的东西。两种写法选其一。",
        ),
    ),
    (
        re.compile(r"forward\(\) takes (\d+) positional arguments? but (\d+) (?:was|were) given"),
        lambda m: say(
            f"forward takes {m[1]} parameter(s) but was called with {m[2]}: it gets ctx plus one parameter per "
            "input given to apply(...) (or the inputs only, without ctx, when the class defines setup_context).",
            f"forward 接收 {m[1]} 个参数，调用时却传了 {m[2]} 个：它收到 ctx，再加上传给 apply(...) 的每个输入各一个参数"
            "（类定义了 setup_context 时只收输入，没有 ctx）。",
        ),
    ),
    (
        re.compile(r"You must implement either the backward or vjp method"),
        lambda m: say(
            "backward is not implemented: define a @staticmethod backward(ctx, grad_output).",
            "backward 还没有实现：请定义 @staticmethod backward(ctx, grad_output)。",
        ),
    ),
    (
        re.compile(r"can't allocate memory|not enough memory|DefaultCPUAllocator"),
        lambda m: out_of_memory(),
    ),
]


def explain(exc_type: str, message: str, arg_names: list[str] | None = None) -> tuple[str, str]:
    """(status, message): 'error' when the code could not be graded at all, else 'fail'."""
    for pattern, build in PATTERNS:
        m = pattern.search(message)
        if m:
            status = "error" if "memory" in pattern.pattern else "fail"
            text = build(m)
            for i, name in enumerate(arg_names or []):
                if name:
                    text = text.replace(
                        say(f"for input {i} ", f"输入 {i} 的"),
                        say(f"for '{name}' (input {i}) ", f"'{name}'（输入 {i}）的"),
                    )
            return status, text
    if exc_type == "SystemExit":
        return "error", say(
            "your code called sys.exit(); graded code must return normally.",
            "你的代码调用了 sys.exit()；被评测的代码必须正常返回。",
        )
    if exc_type == "MemoryError":
        return "error", out_of_memory()
    if exc_type == "NotImplementedError":
        return "fail", (
            say(f"not implemented yet: {message}", f"还没有实现：{message}")
            if message
            else say("not implemented yet (NotImplementedError)", "还没有实现（NotImplementedError）")
        )
    if exc_type in ERROR_KINDS:
        return "error", f"{exc_type}: {message}"
    return "fail", f"{exc_type}: {message}"
