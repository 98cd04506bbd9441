"""Which callables an exercise may name as its reference: public tensor ops of a few torch namespaces,
or a function in the exercise's own checks.py (`checks:NAME`)."""

from __future__ import annotations

import re

NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def reference_problem(target: str) -> str | None:
    """None when `target` is allowed, else why not."""
    if target.startswith("checks:"):
        name = target.split(":", 1)[1]
        return None if _NAME.fullmatch(name) else f"'checks:{name}' does not name a public function of checks.py"
    namespace, _, attr = target.rpartition(".")
    if namespace not in NAMESPACES or not _NAME.fullmatch(attr):
        allowed = ", ".join(f"{n}.NAME" for n in NAMESPACES)
        return f"reference {target!r} is not allowed: use a public op of {allowed}, or checks:NAME"
    return None
