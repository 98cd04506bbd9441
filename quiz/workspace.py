"""The learner's workspace: one editable copy of each exercise's starter, in the data dir."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from quiz import paths
from quiz.content.bank import Bank


def workspace_file(exercise_id: str) -> Path:
    return paths.workspace_dir() / f"{exercise_id.replace('-', '_')}.py"


def start(bank: Bank, exercise_id: str) -> tuple[Path, bool]:
    """Copy the starter into the workspace unless a copy is there; returns (path, created)."""
    target = workspace_file(exercise_id)
    if target.exists():
        return target, False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bank.exercise_dirs[exercise_id] / "starter.py", target)
    return target, True


def reset(bank: Bank, exercise_id: str) -> tuple[Path, Path | None]:
    """Put the starter back; the learner's previous file is kept beside it as a timestamped .bak."""
    target = workspace_file(exercise_id)
    saved = None
    if target.exists():
        saved = target.with_name(f"{target.stem}.{time.strftime('%Y%m%d-%H%M%S')}.bak")
        shutil.copyfile(target, saved)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bank.exercise_dirs[exercise_id] / "starter.py", target)
    return target, saved


def solution_text(bank: Bank, exercise_id: str) -> str:
    return (bank.exercise_dirs[exercise_id] / "solution.py").read_text(encoding="utf-8")
