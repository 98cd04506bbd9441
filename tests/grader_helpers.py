"""Helpers for grader tests: the fixture exercise and a way to grade a snippet of learner code."""

from __future__ import annotations

from pathlib import Path

from quiz.content.models import Exercise
from quiz.content.yamlsafe import read_yaml

FIXTURE = Path(__file__).parent / "fixtures" / "exercises" / "double"


def load_exercise(folder: Path) -> dict:
    doc, problems = read_yaml(folder / "exercise.yaml")
    assert doc is not None, problems
    return Exercise.model_validate(doc.data).model_dump()


def grade_source(worker, tmp_path: Path, source: str, exercise: dict | None = None, folder: Path = FIXTURE):
    path = tmp_path / "answer.py"
    path.write_text(source, encoding="utf-8")
    return worker.grade(exercise or load_exercise(folder), folder, path)


GOOD_DOUBLE = (FIXTURE / "solution.py").read_text(encoding="utf-8")
WRONG_DOUBLE = GOOD_DOUBLE.replace("return g * 2", "return g * 3")


def processes_with_args(needle: str) -> list[int]:
    """Pids whose command line contains `needle` (only a marker this test made up can match)."""
    import os

    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                args = fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if needle in args:
            found.append(int(name))
    return found


def processes_named(comm: str) -> list[int]:
    """Pids whose name (/proc/PID/comm, set with prctl(PR_SET_NAME)) is `comm`."""
    import os

    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/comm") as fh:
                if fh.read().strip() == comm:
                    found.append(int(name))
        except OSError:
            continue
    return found
