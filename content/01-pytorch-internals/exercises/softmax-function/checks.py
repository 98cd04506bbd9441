"""Checks that need code: what forward saved for backward."""

import torch


class FakeCtx:
    def __init__(self):
        self.needs_input_grad = (True, False)
        self.saved_tensors = ()

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *args):
        pass

    def set_materialize_grads(self, value):
        pass


def test_saves_output(entry):
    x = torch.randn(3, 4, dtype=torch.float64)
    ctx = FakeCtx()
    y = entry.forward(ctx, x, -1)
    saved = ctx.saved_tensors
    assert len(saved) >= 1, "forward saved nothing with ctx.save_for_backward"
    assert any(s.shape == y.shape and torch.equal(s, y) for s in saved), (
        "forward should save its output y (the softmax Jacobian needs only y); it saved something else"
    )
    assert not any(s.shape == x.shape and torch.equal(s, x) for s in saved), (
        "forward saved the input x too; backward needs only the output"
    )
