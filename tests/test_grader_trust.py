"""Nothing the learner's process says is taken on trust: forged reports, patched graders, lying tensors
and a replaced apply pass nothing; after any of them a right answer passes and a wrong one fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader_helpers import FIXTURE, GOOD_DOUBLE, WRONG_DOUBLE, grade_source, load_exercise
from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker

BUILTIN = paths.builtin_content_dir()
BANK = load_bank([BUILTIN], builtin=BUILTIN)

# Defines no entry: finds the grader's own `emit` and plans on the stack and reports every check as done,
# with the kinds of trivially-true data a judge that trusted its child would accept, then leaves.
FORGER = """
import os, sys
frame = sys._getframe()
while frame is not None and "emit" not in frame.f_locals:
    frame = frame.f_back
emit, plans = frame.f_locals["emit"], frame.f_locals["plans"]
for plan in plans:
    if plan["check"]["kind"] == "function":
        data = {"calls": []}
    else:
        data = {"structure": {"is_function": True, "apply_replaced": False}, "outputs": [], "inputs_after": [],
                "grad_fn": {"missing": [], "name": "X", "is_entry": True}, "vjps": [[], []], "held": [], "returned": []}
    emit({"index": plan["index"], "data": data})
os._exit(0)
"""


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def grade_file(worker, exercise_id: str, path: Path):
    return worker.grade(BANK.exercises[exercise_id].model_dump(), BANK.exercise_dirs[exercise_id], path)


def test_a_file_that_implements_nothing_passes_no_exercise(worker, tmp_path):
    path = tmp_path / "forger.py"
    path.write_text(FORGER, encoding="utf-8")
    passed = [ex for ex in sorted(BANK.exercises) if grade_file(worker, ex, path).status == "pass"]
    assert passed == []
    assert len(BANK.exercises) >= 27


def test_after_a_forger_a_right_file_passes_and_a_wrong_one_fails(worker, tmp_path):
    path = tmp_path / "forger.py"
    path.write_text(FORGER, encoding="utf-8")
    grade_file(worker, "silu-function", path)
    folder = BANK.exercise_dirs["silu-function"]
    assert grade_file(worker, "silu-function", folder / "solution.py").status == "pass"
    assert grade_file(worker, "silu-function", folder / "mutants" / "sign_error.py").status == "fail"


PATCH_JUDGE = (
    "import torch, quiz.grader.verdict as v, quiz.grader.kinds.autograd as a, quiz.grader.judge as j\n"
    "torch.allclose = lambda *x, **k: True\n"
    "torch.equal = lambda *x, **k: True\n"
    "v.compare = lambda *x, **k: None\n"
    "a.judge = lambda *x, **k: None\n"
    "j.judge_record = lambda *x, **k: ('pass', 'patched')\n"
)


def test_patching_the_graders_own_code_passes_nothing(worker, tmp_path):
    assert grade_source(worker, tmp_path, WRONG_DOUBLE + PATCH_JUDGE).status == "fail"
    measuring = PATCH_JUDGE + "a.vjp = lambda outs, xs, us, keep: [u * 5 for u in us]\n"
    assert grade_source(worker, tmp_path, WRONG_DOUBLE + measuring).status == "fail"
    # beside a right answer the same patching of the judge changes nothing: the judge runs elsewhere
    assert grade_source(worker, tmp_path, GOOD_DOUBLE + PATCH_JUDGE).status == "pass"


def test_a_tensor_that_lies_about_its_values_passes_nothing(worker, tmp_path):
    liar = """
class Liar(torch.Tensor):
    def tolist(self):
        return (self / 3 * 2).as_subclass(torch.Tensor).tolist()
    def __float__(self):
        return 2.0
    def numpy(self):
        return (self / 3 * 2).as_subclass(torch.Tensor).numpy()
"""
    src = WRONG_DOUBLE.replace("import torch\n", "import torch\n" + liar).replace(
        "return g * 3", "return (g * 3).as_subclass(Liar)"
    )
    assert grade_source(worker, tmp_path, src).status == "fail"


def test_replacing_apply_over_the_starter_is_named(worker, tmp_path):
    folder = BANK.exercise_dirs["silu-function"]
    src = (folder / "starter.py").read_text(
        encoding="utf-8"
    ) + "\nSiLU.apply = staticmethod(torch.nn.functional.silu)\n"
    path = tmp_path / "silu.py"
    path.write_text(src, encoding="utf-8")
    result = grade_file(worker, "silu-function", path)
    assert result.status == "fail"
    assert "apply" in result.tests[0].message


def test_calling_a_torch_op_in_place_of_the_function_is_named(worker, tmp_path):
    src = (
        "import torch\n\nclass SiLU(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n\n"
        "class SiLU(SiLU):\n    @classmethod\n    def apply(cls, x):\n        return torch.nn.functional.silu(x)\n"
    )
    path = tmp_path / "silu.py"
    path.write_text(src, encoding="utf-8")
    result = grade_file(worker, "silu-function", path)
    assert result.status == "fail"


def test_unreadable_learner_files_are_errors_without_blocking(worker, tmp_path):
    exercise = load_exercise(FIXTURE)
    assert worker.grade(exercise, FIXTURE, Path("/dev/zero")).status == "error"
    fifo = tmp_path / "answer.py"
    os.mkfifo(fifo)
    result = worker.grade(exercise, FIXTURE, fifo)
    assert result.status == "error" and "not a regular file" in result.message
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (2 * 1024 * 1024))
    assert "at most" in worker.grade(exercise, FIXTURE, big).message


def test_learner_text_that_is_not_utf8_is_made_safe(worker, tmp_path):
    src = GOOD_DOUBLE.replace("return x * 2", "raise ValueError('bad \\udcff byte [/] \\x00')")
    result = grade_source(worker, tmp_path, src)
    text = json.dumps(result.to_dict(), ensure_ascii=False)
    text.encode("utf-8")  # no lone surrogate survives
    assert result.status == "fail" and "bad" in result.tests[0].message


def test_quiz_check_json_survives_surrogates(tmp_path):
    path = tmp_path / "silu.py"
    path.write_text("import torch\nraise ValueError('\\udcff')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "quiz", "check", "silu-function", str(path), "--json"], capture_output=True, timeout=180
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    data = json.loads(proc.stdout.decode("utf-8"))
    assert data["status"] == "fail" and data["protections"]
