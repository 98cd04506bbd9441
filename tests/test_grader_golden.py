"""Golden files: the full results of grading known answers, minus timings, stay exactly as recorded.

Regenerate after an intended change with: QUIZ_UPDATE_GOLDEN=1 python3 -m pytest tests/test_grader_golden.py
(that run writes the files and skips; the next run compares).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("silu-function", "solution.py"),
    ("silu-function", "mutants/sign_error.py"),
    ("linear-function", "mutants/no_none_for_missing_bias.py"),
    ("softmax-function", "mutants/no_max_subtraction.py"),
    ("fake-quant-ste", "starter.py"),
]


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


NUMBER = re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?")


def stable(result) -> dict:
    """The result without what varies run to run: timings, the fences of this machine, and the numbers in
    messages (every check draws fresh inputs, so the values named differ; the wording must not)."""
    data = result.to_dict()
    data.pop("duration_ms")
    data.pop("protections")
    for test in data["tests"]:
        test["message"] = NUMBER.sub("<n>", test["message"])
        test["output"] = NUMBER.sub("<n>", test["output"])
    data["message"] = NUMBER.sub("<n>", data["message"])
    return data


@pytest.mark.parametrize("exercise_id,file", CASES)
def test_results_match_golden(worker, exercise_id, file):
    builtin = paths.builtin_content_dir()
    bank = load_bank([builtin], builtin=builtin)
    folder = bank.exercise_dirs[exercise_id]
    got = stable(worker.grade(bank.exercises[exercise_id].model_dump(), folder, folder / file))
    golden = GOLDEN / f"{exercise_id}--{file.replace('/', '-').removesuffix('.py')}.json"
    if os.environ.get("QUIZ_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        pytest.skip(f"wrote {golden.name}; run again without QUIZ_UPDATE_GOLDEN to compare")
    assert got == json.loads(golden.read_text(encoding="utf-8"))
