"""Hostile or broken learner code: every case ends in the status the contract promises."""

from __future__ import annotations

import os
import time

import pytest

from grader_helpers import GOOD_DOUBLE, WRONG_DOUBLE, grade_source, processes_with_args
from quiz.grader.runner import GraderWorker


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def statuses(result):
    return [t.status for t in result.tests]


def test_solution_passes_and_wrong_backward_fails(worker, tmp_path):
    assert grade_source(worker, tmp_path, GOOD_DOUBLE).status == "pass"
    result = grade_source(worker, tmp_path, WRONG_DOUBLE)
    assert result.status == "fail"
    message = result.tests[0].message
    assert "gradient for 'x' at (" in message and "It is 1.5 times the right value" in message


def test_endless_loop_times_out_within_limit(worker, tmp_path):
    start = time.perf_counter()
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return x * 2", "while True:\n            pass"))
    elapsed = time.perf_counter() - start
    assert result.status == "timeout"
    assert elapsed < 3 + 1.0, elapsed


def test_huge_allocation_is_an_error_with_a_message(worker, tmp_path):
    # 4 GiB, touched: the machine could give it (it has far more), the child's 2 GiB of headroom cannot
    src = GOOD_DOUBLE.replace(
        "return x * 2", "big = torch.ones(4 * 1024**3 // 8, dtype=torch.float64)\n        return x * 2"
    )
    result = grade_source(worker, tmp_path, src)
    assert result.status == "error"
    assert "memory" in result.message
    assert worker.ping()["ok"]


def test_segfault_is_an_error(worker, tmp_path):
    src = "import ctypes\nctypes.string_at(0)\n" + GOOD_DOUBLE
    result = grade_source(worker, tmp_path, src)
    assert result.status == "error"
    assert "SIGSEGV" in result.message


@pytest.mark.parametrize("exit_call", ["import os\nos._exit(0)\n", "import sys\nsys.exit(0)\n"])
def test_exiting_early_is_never_a_pass(worker, tmp_path, exit_call):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE + exit_call)
    assert result.status == "error"
    assert "exit" in result.message


def test_ten_megabytes_of_output_are_cut(worker, tmp_path):
    src = GOOD_DOUBLE.replace("return x * 2", "print('x' * 10_000_000)\n        return x * 2")
    result = grade_source(worker, tmp_path, src)
    assert result.status == "pass"
    out = result.tests[0].output
    assert len(out) < 20_000 and "output cut" in out


def test_syntax_error_names_its_line(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return x * 2", "return x *"))
    assert result.status == "error"
    assert "syntax error at line 7" in result.message


def test_missing_entry_is_named(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("class Double", "class Twice"))
    assert result.status == "error"
    assert "'Double'" in result.message and "Twice" in result.message


def test_patching_torch_comparisons_does_not_pass_a_wrong_backward(worker, tmp_path):
    patch = (
        "import torch, torch.testing\n"
        "torch.allclose = lambda *a, **k: True\n"
        "torch.testing.assert_close = lambda *a, **k: None\n"
        "torch.autograd.gradcheck = lambda *a, **k: True\n"
        "torch.equal = lambda *a, **k: True\n"
    )
    result = grade_source(worker, tmp_path, WRONG_DOUBLE + patch)
    assert result.status == "fail"
    runtime_patch = WRONG_DOUBLE.replace("return x * 2", "torch.allclose = lambda *a, **k: True\n        return x * 2")
    assert grade_source(worker, tmp_path, runtime_patch).status == "fail"


def test_wrong_number_of_gradients(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return g * 2", "return g * 2, g"))
    assert result.status == "fail"
    assert "returned 2 value(s) but forward takes 1" in result.tests[0].message


def test_wrong_gradient_shape(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return g * 2", "return (g * 2).sum(0)"))
    assert result.status == "fail"
    assert "has shape [3] but that input has shape [2, 3]" in result.tests[0].message


def test_in_place_change_of_input_is_explained(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return x * 2", "x.mul_(2)\n        return x.clone()"))
    assert result.status == "fail"
    assert "in place" in result.tests[0].message


def test_float32_output_is_explained(worker, tmp_path):
    result = grade_source(worker, tmp_path, GOOD_DOUBLE.replace("return x * 2", "return (x * 2).float()"))
    assert result.status == "fail"
    assert "float64" in result.tests[0].message


def test_calling_forward_directly_is_explained(worker, tmp_path):
    src = (
        GOOD_DOUBLE.replace("class Double(", "class DoubleFn(")
        + "\n\ndef Double(x):\n    return DoubleFn.forward(None, x)\n"
    )
    result = grade_source(worker, tmp_path, src)
    assert result.status == "fail"
    assert ".apply" in result.tests[0].message


def test_output_without_grad_fn_is_explained(worker, tmp_path):
    from grader_helpers import load_exercise

    exercise = dict(load_exercise(__import__("grader_helpers").FIXTURE), autograd_function=False)
    src = "import torch\n\ndef Double(x):\n    return (x * 2).detach()\n"
    result = grade_source(worker, tmp_path, src, exercise=exercise)
    assert result.status == "fail"
    assert "grad_fn" in result.tests[0].message


def test_leftover_processes_and_threads_are_killed(worker, tmp_path):
    marker = f"{os.getpid()}.{time.monotonic_ns() % 10**6}"
    src = (
        "import subprocess, threading, time\n"
        f"subprocess.Popen(['sleep', '{marker}'])\n"
        "threading.Thread(target=lambda: time.sleep(1000), daemon=False).start()\n"
    ) + GOOD_DOUBLE
    result = grade_source(worker, tmp_path, src)
    assert result.status == "pass"
    time.sleep(0.2)
    assert not processes_with_args(f"sleep {marker}")


def test_worker_survives_and_keeps_grading(worker, tmp_path):
    assert grade_source(worker, tmp_path, GOOD_DOUBLE).status == "pass"


SQUARE = """import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g
"""


def square_exercise() -> dict:
    from grader_helpers import load_exercise

    spec = dict(load_exercise(__import__("grader_helpers").FIXTURE), entry="Square", id="square")
    spec["checks"] = [
        {"kind": "gradgradcheck", "reference": "checks:square", "args": [{"name": "x", "tensor": {"shape": [2, 3]}}]}
    ]
    return spec


def test_gradgradcheck_passes_a_differentiable_backward(worker, tmp_path):
    assert grade_source(worker, tmp_path, SQUARE, exercise=square_exercise()).status == "pass"


def test_gradgradcheck_fails_a_backward_that_detaches(worker, tmp_path):
    result = grade_source(
        worker, tmp_path, SQUARE.replace("return 2 * x * g", "return 2 * x.detach() * g"), exercise=square_exercise()
    )
    assert result.status == "fail"
    assert "gradient of your backward" in result.tests[0].message


def test_forged_reply_on_the_workers_protocol_pipe_is_impossible(worker, tmp_path):
    forge = (
        "import os, json\n"
        "fake = json.dumps({'version': 1, 'exercise': 'double-fixture', 'status': 'pass', 'message': '',\n"
        "                   'duration_ms': 1, 'tests': []}) + '\\n'\n"
        "for fd in range(3, 64):\n"
        "    try:\n"
        "        os.write(fd, fake.encode())\n"
        "    except OSError:\n"
        "        pass\n"
    )
    result = grade_source(worker, tmp_path, WRONG_DOUBLE + forge)
    assert result.status in ("fail", "error")  # a forged result pipe only garbles the report
    assert grade_source(worker, tmp_path, GOOD_DOUBLE).status == "pass"
