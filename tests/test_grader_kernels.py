"""Triton kernel exercises: the interpreter in the fenced child, launch evidence, bounds-checked memory,
the judge's own verdict, and what happens where Triton is not installed."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader import sandbox, wire
from quiz.grader.kinds import kernel
from quiz.grader.results import ERROR, FAIL, PASS
from quiz.grader.triton_support import INSTALL_HINT, available, uses_kernels

REPO = Path(__file__).resolve().parent.parent
BUILTIN = paths.builtin_content_dir()
BANK = load_bank([BUILTIN], builtin=BUILTIN)
KERNEL_EXERCISES = sorted(e for e in BANK.exercises if uses_kernels(BANK.exercises[e].model_dump()))
needs_triton = pytest.mark.skipif(not available(), reason="Triton is not installed (pip install -e '.[kernels]')")

HIDE_TRITON = "import sys\nsys.modules['triton'] = None  # as if Triton were not installed\n"


def test_the_bank_has_the_eight_kernel_exercises():
    wanted = {
        "triton-vector-add",
        "triton-row-softmax",
        "triton-rmsnorm",
        "triton-matmul",
        "triton-bias-gelu",
        "triton-flash-attention",
        "triton-int8-quant",
        "triton-two-stage-sum",
    }
    assert wanted <= set(KERNEL_EXERCISES)
    for eid in wanted:
        ex = BANK.exercises[eid]
        assert ex.questions and all(q in BANK.questions for q in ex.questions)
        assert any(eid in BANK.questions[q].exercises for q in ex.questions), f"{eid}: no question lists it"
        assert len(list((BANK.exercise_dirs[eid] / "mutants").glob("*.py"))) >= 3


# ---------------------------------------------------------------- without Triton


def _without_triton(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(HIDE_TRITON)
    env = dict(os.environ, PYTHONPATH=f"{hide}{os.pathsep}{REPO}")
    return subprocess.run(
        [sys.executable, "-c", "from quiz.cli.main import main; main()", *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_check_without_triton_says_how_to_install_it_and_exits_2(tmp_path):
    solution = BANK.exercise_dirs["triton-vector-add"] / "solution.py"
    done = _without_triton(tmp_path, "check", "triton-vector-add", str(solution), "--no-record")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "pip install" in done.stderr and "kernels" in done.stderr


def test_exercise_list_without_triton_marks_kernel_exercises(tmp_path):
    done = _without_triton(tmp_path, "exercise", "list")
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "needs Triton" in lines["triton-matmul"]
    assert "needs Triton" not in lines["silu-function"]
    assert "pip install" in done.stdout


def test_grade_without_triton_is_an_error_with_the_hint(tmp_path, monkeypatch):
    from quiz.grader import grade as grade_module

    monkeypatch.setattr(grade_module, "available", lambda: False)
    folder = BANK.exercise_dirs["triton-vector-add"]
    spec = BANK.exercises["triton-vector-add"].model_dump()
    result = grade_module.grade(spec, folder, folder / "solution.py", str(tmp_path))
    assert result.status == ERROR and result.message == INSTALL_HINT


def test_asking_whether_triton_is_there_does_not_import_it():
    code = "from quiz.grader.triton_support import available\navailable()\nimport sys\nprint('triton' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- the judge (no learner code, no triton)


class _Ctx:
    name = "shape (5,)"
    helpers = None

    def __init__(self, reference):
        self._reference = reference

    def reference(self, check):
        return self._reference

    def hint_for_output(self, check, args, got):
        return ""


CHECK = {
    "kind": "kernel",
    "args": [{"name": "x", "tensor": {"shape": [5], "dtype": "float32", "requires_grad": False}}],
    "atol": 1e-6,
    "rtol": 1e-5,
}


def _record(out: torch.Tensor, launches: int = 1) -> dict:
    return {"outputs": [wire.tensor_to_wire(out)], "launches": launches}


def _inputs(seed: int) -> torch.Tensor:
    from quiz.grader.inputs import build_args

    return build_args(CHECK["args"], seed)[0]


def test_judge_passes_the_right_output_from_a_launched_kernel():
    x = _inputs(7)
    assert kernel.judge(CHECK, 7, _record(x * 2), _Ctx(lambda t: t * 2)).status == PASS


def test_judge_fails_a_wrapper_that_launched_nothing():
    x = _inputs(7)
    result = kernel.judge(CHECK, 7, _record(x * 2, launches=0), _Ctx(lambda t: t * 2))
    assert result.status == FAIL and "launched no @triton.jit kernel" in result.message and "(5,)" in result.message


def test_judge_names_the_shape_and_the_wrong_tail():
    x = _inputs(7)
    got = x * 2
    got[3:] = 0.0
    result = kernel.judge(CHECK, 7, _record(got), _Ctx(lambda t: t * 2))
    assert result.status == FAIL
    assert "(5,)" in result.message and "from 3 of 5 are wrong, earlier ones are right" in result.message


def test_judge_wants_at_least_min_launches():
    x = _inputs(7)
    result = kernel.judge(dict(CHECK, min_launches=2), 7, _record(x * 2), _Ctx(lambda t: t * 2))
    assert result.status == FAIL and "at least 2 launches" in result.message


@pytest.mark.parametrize(
    "data",
    [
        {"outputs": []},
        {"outputs": [], "launches": "1"},
        {"outputs": [], "launches": 1, "ok": True},
        {"outputs": {}, "launches": 1},
    ],
)
def test_judge_refuses_a_malformed_record(data):
    with pytest.raises(wire.WireError):
        kernel.judge(CHECK, 7, data, _Ctx(lambda t: t))


def test_judge_fails_a_wrong_dtype():
    x = _inputs(7)
    result = kernel.judge(CHECK, 7, _record((x * 2).double()), _Ctx(lambda t: t * 2))
    assert result.status == FAIL and "dtype float64" in result.message


# ---------------------------------------------------------------- the fenced child on a GPU


def test_a_gpu_child_has_no_address_space_limit(tmp_path):
    def report(emit):
        emit({"as": resource.getrlimit(resource.RLIMIT_AS)[0]})

    plain = sandbox.run_limited(report, 20, str(tmp_path))
    gpu = sandbox.run_limited(report, 20, str(tmp_path), gpu=True)
    assert gpu.records == [{"as": resource.RLIM_INFINITY}]
    assert plain.records and plain.records[0]["as"] != resource.RLIM_INFINITY


# ---------------------------------------------------------------- grading learner files (needs Triton)


@pytest.fixture(scope="module")
def worker():
    from quiz.grader.runner import GraderWorker

    with GraderWorker() as w:
        yield w


def _grade(worker, tmp_path: Path, source: str, exercise_id: str = "triton-vector-add", device: str = "auto"):
    file = tmp_path / "attempt.py"
    file.write_text(source)
    return worker.grade(BANK.exercises[exercise_id].model_dump(), BANK.exercise_dirs[exercise_id], file, device=device)


KERNEL = """
import os
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), {store_mask})


def add(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 128),)](x, y, out, x.numel(), BLOCK=128)
    return {result}
"""


@needs_triton
def test_a_kernel_runs_in_the_interpreter_with_every_cache_in_the_scratch_folder(worker, tmp_path):
    source = KERNEL.format(store_mask="mask=mask", result="out") + (
        "\nprint('interpret', os.environ.get('TRITON_INTERPRET'), 'cache-in-cwd',"
        " os.environ['TRITON_CACHE_DIR'].startswith(os.getcwd()), 'home-in-cwd', os.environ['TRITON_HOME'] == os.getcwd())\n"
    )
    result = _grade(worker, tmp_path, source)
    assert result.status == PASS, [t.to_dict() for t in result.tests]
    assert "interpret 1 cache-in-cwd True home-in-cwd True" in result.tests[0].output


@needs_triton
def test_an_unmasked_store_is_stopped_with_a_message_naming_the_mask(worker, tmp_path):
    result = _grade(worker, tmp_path, KERNEL.format(store_mask="mask=None", result="out"))
    assert result.status == FAIL
    failed = [t for t in result.tests if t.status == FAIL]
    assert failed and all(
        "tl.store wrote memory outside every tensor" in t.message and "mask=" in t.message for t in failed
    )
    assert all(t.message.startswith("line 12:") for t in failed)  # the store's line in the learner's file


@needs_triton
def test_a_kernel_launched_then_replaced_by_a_torch_op_is_judged_on_its_values(worker, tmp_path):
    # launch evidence is about where the work happens; the values are still the judge's to check
    result = _grade(worker, tmp_path, KERNEL.format(store_mask="mask=mask", result="out * 0 + x - y"))
    assert result.status == FAIL and "should be" in result.tests[0].message


@needs_triton
def test_a_kernel_from_another_file_does_not_count_as_a_launch(worker, tmp_path):
    helper = tmp_path / "helper_kernels.py"
    helper.write_text(KERNEL.format(store_mask="mask=mask", result="out"))
    source = (
        f"import importlib.util, sys\nspec = importlib.util.spec_from_file_location('h', {str(helper)!r})\n"
        "h = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(h)\nadd = h.add\n"
    )
    result = _grade(worker, tmp_path, source)
    assert result.status == FAIL and "launched no @triton.jit kernel" in result.tests[0].message


@needs_triton
def test_device_cuda_without_a_gpu_is_an_error_that_says_so(worker, tmp_path):
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    result = _grade(worker, tmp_path, KERNEL.format(store_mask="mask=mask", result="out"), device="cuda")
    assert result.status == ERROR and "no CUDA device" in result.message
