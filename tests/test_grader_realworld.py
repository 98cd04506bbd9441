"""Code as real projects write it: correct implementations in either Function style pass, and the
subtle bugs the simple checks missed fail with a message that points at them."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker

BUILTIN = paths.builtin_content_dir()
BANK = load_bank([BUILTIN], builtin=BUILTIN)


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def grade(worker, exercise_id: str, tmp_path: Path, source: str):
    path = tmp_path / f"{exercise_id}.py"
    path.write_text(source, encoding="utf-8")
    return worker.grade(BANK.exercises[exercise_id].model_dump(), BANK.exercise_dirs[exercise_id], path)


# The style the PyTorch 2.x docs teach (and DeepSpeed's LinearFunctionForZeroStage3 uses): forward without
# ctx, setup_context to save, backward honouring needs_input_grad.
LINEAR_SETUP_CONTEXT = """
import torch


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.matmul(weight.t())
        if bias is not None:
            output += bias
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.matmul(weight)
        if ctx.needs_input_grad[1]:
            dims = grad_output.dim()
            grad_weight = grad_output.reshape(-1, grad_output.shape[-1]).t().matmul(input.reshape(-1, input.shape[-1]))
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.reshape(-1, grad_output.shape[-1]).sum(0)
        return grad_input, grad_weight, grad_bias
"""


def test_the_setup_context_style_passes(worker, tmp_path):
    entry = BANK.exercises["linear-function"].entry
    result = grade(worker, "linear-function", tmp_path, LINEAR_SETUP_CONTEXT.replace("LinearFunction", entry))
    assert result.status == "pass", [t.to_dict() for t in result.tests if t.status != "pass"]


def test_mixing_the_two_styles_is_explained(worker, tmp_path):
    entry = BANK.exercises["linear-function"].entry
    mixed = LINEAR_SETUP_CONTEXT.replace(
        "def forward(input, weight, bias=None):", "def forward(ctx, input, weight, bias=None):"
    )
    result = grade(worker, "linear-function", tmp_path, mixed.replace("LinearFunction", entry))
    assert result.status == "fail"
    message = result.tests[0].message
    assert "setup_context" in message and "line" in message


# torch.utils.checkpoint's own reentrant Function, adapted to the exercise's signature: its backward refuses
# torch.autograd.grad, so the grader must take gradients through .backward().
TORCH_CHECKPOINT = """
import torch
from torch.utils.checkpoint import CheckpointFunction


class {entry}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *args):
        return CheckpointFunction.forward(ctx, fn, True, *args)

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + CheckpointFunction.backward(ctx, *grads)[2:]
"""


def test_torchs_reentrant_checkpoint_passes(worker, tmp_path):
    entry = BANK.exercises["checkpoint-function"].entry
    result = grade(worker, "checkpoint-function", tmp_path, TORCH_CHECKPOINT.format(entry=entry))
    assert result.status == "pass", [t.to_dict() for t in result.tests if t.status != "pass"]


NON_REENTRANT_SILU = """
import torch


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x)
        ctx.s = s
        return x * s

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = ctx.s
        d = s.mul_(1 + x * (1 - s))  # changes the kept sigmoid in place: a second backward is wrong
        return grad_output * d
"""


def test_a_backward_that_is_not_reentrant_fails_with_the_reason(worker, tmp_path):
    result = grade(worker, "silu-function", tmp_path, NON_REENTRANT_SILU)
    assert result.status == "fail"
    assert any("second backward" in t.message and "in place" in t.message for t in result.tests)


INT8_KEEPS_FLOAT = (
    (BANK.exercise_dirs["int8-saved-activations"] / "solution.py")
    .read_text(encoding="utf-8")
    .replace("ctx.save_for_backward(q, scale, weight)", "ctx.save_for_backward(q, scale, weight)\n        ctx.x = x")
)


def test_keeping_the_float_activation_on_ctx_fails(worker, tmp_path):
    assert "ctx.x = x" in INT8_KEEPS_FLOAT
    result = grade(worker, "int8-saved-activations", tmp_path, INT8_KEEPS_FLOAT)
    assert result.status == "fail"
    assert any("ctx.x" in t.message for t in result.tests if t.status == "fail")


RING_DUMMY = """
import torch


def ring_all_reduce(tensors, send):
    p = len(tensors)
    total = torch.stack([t.detach() for t in tensors]).sum(0)
    for _ in range(2 * (p - 1)):
        for r in range(p):
            send(r, (r + 1) % p, torch.zeros(tensors[0].numel() // p, dtype=tensors[0].dtype))
    return [total.clone() for _ in range(p)]
"""


def test_a_ring_that_sums_locally_and_sends_dummies_fails(worker, tmp_path):
    result = grade(worker, "ring-allreduce-sim", tmp_path, RING_DUMMY)
    assert result.status == "fail"
    assert any("should carry" in t.message for t in result.tests if t.status == "fail")


def test_tanh_gelu_where_exact_gelu_is_asked_is_named(worker, tmp_path):
    folder = BANK.exercise_dirs["bias-gelu-fused"]
    result = grade(
        worker, "bias-gelu-fused", tmp_path, (folder / "mutants" / "tanh_approximation.py").read_text(encoding="utf-8")
    )
    assert result.status == "fail"
    assert any("tanh approximation" in t.message for t in result.tests if t.status == "fail")
