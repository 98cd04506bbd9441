"""One module per kind of check, each with a learner half (`measure`) and a trusted half (`judge`)."""

from __future__ import annotations

from types import ModuleType


def module_for(check_kind: str) -> ModuleType:
    from quiz.grader.kinds import autograd, distributed, function, kernel
    from quiz.grader.say import say

    for module in (autograd, function, kernel, distributed):
        if check_kind in module.KINDS:
            return module
    raise LookupError(say(f"unknown check kind {check_kind!r}", f"未知的检查类型 {check_kind!r}"))
