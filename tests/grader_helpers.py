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
