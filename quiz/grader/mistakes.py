"""Turn the exceptions that learners' autograd code commonly raises into messages that teach."""

from __future__ import annotations

import re

ERROR_KINDS = {"SyntaxError", "SystemExit", "MemoryError", "ImportError", "ModuleNotFoundError", "KeyboardInterrupt"}

PATTERNS = [
    (
        re.compile(r"returned an incorrect number of gradients \(expected (\d+), got (\d+)\)"),
        lambda m: (
            f"backward returned {m[2]} value(s) but forward takes {m[1]} input(s) after ctx: return one gradient "
            "per forward input, in order, and None for inputs that need none (non-tensor arguments such as dim, "
            "eps, scale or a function)."
        ),
    ),
    (
        re.compile(r"returned an invalid gradient at index (\d+) - got \[([^\]]*)\] but expected shape compatible with \[([^\]]*)\]"),
        lambda m: (
            f"the gradient for input {m[1]} has shape [{m[2]}] but that input has shape [{m[3]}]: each gradient "
            "must have its input's shape (sum over dimensions that were broadcast, transpose where needed)."
        ),
    ),
    (
        re.compile(r"does not require grad and does not have a grad_fn"),
        lambda m: (
            "a tensor handed to autograd has no graph behind it: call a Function through .apply(...) (not "
            ".forward) and do not detach its result; when recomputing inside backward, wrap the recomputation "
            "in torch.enable_grad(), since autograd runs backward with grad mode off."
        ),
    ),
    (
        re.compile(r"has been modified by an inplace operation"),
        lambda m: (
            "a tensor saved for backward was changed in place afterwards; compute on a new tensor "
            "(x * 2, not x.mul_(2)) or save a clone."
        ),
    ),
    (
        re.compile(r"a leaf Variable that requires grad is being used in an in-place operation"),
        lambda m: "forward changed an input in place; compute the result in a new tensor instead.",
    ),
    (
        re.compile(r"forward\(\) missing (\d+) required positional argument"),
        lambda m: (
            f"forward did not receive all its parameters ({m[1]} missing). Function.apply(...) passes ctx first "
            "and then exactly the inputs given to apply, unless the class defines setup_context: then forward "
            "takes the inputs only (no ctx) and setup_context(ctx, inputs, output) saves what backward needs. "
            "Use one style or the other."
        ),
    ),
    (
        re.compile(r"forward\(\) takes (\d+) positional arguments? but (\d+) (?:was|were) given"),
        lambda m: (
            f"forward takes {m[1]} parameter(s) but was called with {m[2]}: it gets ctx plus one parameter per "
            "input given to apply(...) (or the inputs only, without ctx, when the class defines setup_context)."
        ),
    ),
    (
        re.compile(r"You must implement either the backward or vjp method"),
        lambda m: "backward is not implemented: define a @staticmethod backward(ctx, grad_output).",
    ),
    (
        re.compile(r"can't allocate memory|not enough memory|DefaultCPUAllocator"),
        lambda m: "ran out of memory: the check's memory limit is about 2 GB above the grader's own size.",
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
                    text = text.replace(f"for input {i} ", f"for '{name}' (input {i}) ")
            return status, text
    if exc_type == "SystemExit":
        return "error", "your code called sys.exit(); graded code must return normally."
    if exc_type == "MemoryError":
        return "error", "ran out of memory: the check's memory limit is about 2 GB above the grader's own size."
    if exc_type == "NotImplementedError":
        return "fail", f"not implemented yet: {message}" if message else "not implemented yet (NotImplementedError)"
    if exc_type in ERROR_KINDS:
        return "error", f"{exc_type}: {message}"
    return "fail", f"{exc_type}: {message}"
