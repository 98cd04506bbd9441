"""Checks that need code: the needs_input_grad contract, observed through a stand-in ctx."""

import torch


class FakeCtx:
    """Enough of a ctx to call forward and backward directly, with chosen needs_input_grad."""

    def __init__(self, needs):
        self.needs_input_grad = needs
        self.saved_tensors = ()

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *args):
        pass

    def set_materialize_grads(self, value):
        pass


def test_needs_input_grad(entry):
    x = torch.randn(4, 3, dtype=torch.float64)
    w = torch.randn(5, 3, dtype=torch.float64)
    b = torch.randn(5, dtype=torch.float64)
    g = torch.randn(4, 5, dtype=torch.float64)
    for needs in [(False, True, True), (True, False, False), (False, False, True)]:
        ctx = FakeCtx(needs)
        entry.forward(ctx, x, w, b)
        grads = entry.backward(ctx, g)
        assert len(grads) == 3, f"backward returned {len(grads)} values; expected 3 (x, weight, bias)"
        for name, need, grad in zip(("x", "weight", "bias"), needs, grads):
            if not need:
                assert grad is None, f"with ctx.needs_input_grad = {needs}, the gradient for {name} should be None (skip computing it), got a tensor"
            else:
                assert grad is not None, f"with ctx.needs_input_grad = {needs}, the gradient for {name} is needed but backward returned None"
    ctx = FakeCtx((True, True, False))
    entry.forward(ctx, x, w, None)
    grads = entry.backward(ctx, g)
    assert len(grads) == 3 and grads[2] is None, "when bias is None, backward must return None in its place"
