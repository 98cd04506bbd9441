"""The function being checkpointed, the plain-autograd reference, and a count of saved tensors."""

import torch


def block(x, w1, w2):
    """A small MLP block whose backward needs several intermediate activations."""
    h = torch.tanh(x @ w1)
    return torch.sigmoid(h @ w2) * x


def plain(fn, *inputs):
    return fn(*inputs)


def test_saves_only_inputs(entry):
    x = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    w1 = torch.randn(4, 16, dtype=torch.float64, requires_grad=True)
    w2 = torch.randn(16, 4, dtype=torch.float64, requires_grad=True)
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
        out = entry.apply(block, x, w1, w2)
    inputs = {x.data_ptr(), w1.data_ptr(), w2.data_ptr()}
    extra = [tuple(t.shape) for t in saved if t.data_ptr() not in inputs]
    assert not extra, f"forward saved {len(extra)} tensor(s) that are not inputs, shapes {extra}: a checkpoint keeps only its inputs"
    assert len(saved) >= 3, f"forward saved {len(saved)} of the 3 inputs; save every input with ctx.save_for_backward"
    ref = block(x, w1, w2)
    grads = torch.autograd.grad(out.sum(), [x, w1, w2])
    expected = torch.autograd.grad(ref.sum(), [x, w1, w2])
    for name, g, e in zip(("x", "w1", "w2"), grads, expected):
        assert torch.allclose(g, e, atol=1e-10), f"the gradient for {name} differs from plain autograd's"
