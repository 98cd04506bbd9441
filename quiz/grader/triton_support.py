"""Whether Triton is there for kernel exercises, asked without importing it (the app may ask)."""

from __future__ import annotations

import importlib.util

from quiz.grader.say import say

INSTALL_HINT = (
    'kernel exercises need Triton, which is not installed: pip install -e ".[kernels]" '
    "from a checkout, or pip install triton (wheels exist for Linux x86-64)"
)
INSTALL_HINT_ZH = (
    'kernel 练习需要 Triton，但它没有安装：在源码目录里 pip install -e ".[kernels]"，'
    "或者 pip install triton（Linux x86-64 上有现成的 wheel）"
)


def install_hint() -> str:
    """INSTALL_HINT in the language of the grade in progress."""
    return say(INSTALL_HINT, INSTALL_HINT_ZH)


def uses_kernels(exercise: dict) -> bool:
    """The exercise (its model as a dict) has a Triton kernel check."""
    return any(c.get("kind") == "kernel" for c in exercise.get("checks", []))


def available() -> bool:
    try:
        return importlib.util.find_spec("triton") is not None
    except (ImportError, ValueError):
        return False
