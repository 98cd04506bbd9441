"""Every exercise in the bank proves its checks can fail: starter and mutants fail, solution passes."""

from __future__ import annotations

import pytest

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker
from quiz.grader.triton_support import available as triton_available
from quiz.grader.triton_support import uses_kernels

BUILTIN = paths.builtin_content_dir()
BANK = load_bank([BUILTIN], builtin=BUILTIN)
EXERCISES = sorted(BANK.exercises)


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def test_there_are_exercises():
    assert len(EXERCISES) >= 6


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_exercise_can_fail(worker, exercise_id):
    exercise = BANK.exercises[exercise_id].model_dump()
    if uses_kernels(exercise) and not triton_available():
        pytest.skip("a Triton kernel exercise, and Triton is not installed: pip install -e '.[kernels]'")
    folder = BANK.exercise_dirs[exercise_id]
    solution = worker.grade(exercise, folder, folder / "solution.py")
    assert solution.status == "pass", [t.to_dict() for t in solution.tests if t.status != "pass"]
    starter = worker.grade(exercise, folder, folder / "starter.py")
    assert starter.status in ("fail", "error"), "the starter must not pass"
    mutants = sorted((folder / "mutants").glob("*.py"))
    assert len(mutants) >= 2, "each exercise needs at least two mutants"
    for mutant in mutants:
        result = worker.grade(exercise, folder, mutant)
        assert result.status == "fail", f"{mutant.name}: {result.status} {result.message}"
        failed = [t for t in result.tests if t.status == "fail"]
        assert all(t.message for t in failed), f"{mutant.name}: a failing check gave no message"
