"""The reference (PyTorch's own fake-quantise op) and a point-by-point STE check."""

import torch

from quiz.grader.say import say


def reference(x, scale, zero_point, qmin, qmax):
    return torch.fake_quantize_per_tensor_affine(x, scale, zero_point, qmin, qmax)


def test_ste_mask(entry):
    # scale 0.5, zero_point 2, range [0, 10]: x in [-1, 4] is representable (rounding decides the edges)
    x = torch.tensor([-3.0, -1.6, -1.1, -0.9, 0.0, 1.3, 3.9, 4.1, 4.6, 9.0], dtype=torch.float64, requires_grad=True)
    expected = torch.tensor([0, 0, 1, 1, 1, 1, 1, 1, 0, 0], dtype=torch.float64)
    y = entry.apply(x, 0.5, 2, 0, 10)
    (grad,) = torch.autograd.grad(y, x, torch.ones_like(y))
    for i in range(len(x)):
        q = int(torch.round(x[i] / 0.5)) + 2
        assert float(grad[i]) == float(expected[i]), say(
            f"at x = {float(x[i])} (round(x/scale)+zero_point = {q}, range [0, 10]) "
            f"the gradient should be {float(expected[i]):g} but is {float(grad[i]):g}",
            f"在 x = {float(x[i])} 处（round(x/scale)+zero_point = {q}，范围 [0, 10]），"
            f"梯度应为 {float(expected[i]):g}，实际是 {float(grad[i]):g}",
        )
