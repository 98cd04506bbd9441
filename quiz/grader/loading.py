"""Load an exercise's own Python files (checks.py, solution.py) as modules, or None when absent."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

from quiz.grader.safe_read import read_source


def load_module(path: Path, name: str) -> Any:
    if not path.is_file():
        return None
    module = types.ModuleType(name)
    module.__file__ = str(path)
    exec(compile(read_source(path), str(path), "exec"), module.__dict__)
    return module
