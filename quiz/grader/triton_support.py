"""Whether Triton is there for kernel exercises, asked without importing it (the app may ask)."""

from __future__ import annotations

import importlib.util

INSTALL_HINT = ('kernel exercises need Triton, which is not installed: pip install -e ".[kernels]" '
                "from a checkout, or pip install triton (wheels exist for Linux x86-64)")


def uses_kernels(exercise: dict) -> bool:
    """The exercise (its model as a dict) has a Triton kernel check."""
    return any(c.get("kind") == "kernel" for c in exercise.get("checks", []))


def available() -> bool:
    try:
        return importlib.util.find_spec("triton") is not None
    except (ImportError, ValueError):
        return False
