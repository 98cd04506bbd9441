import torch


class FakeQuant(torch.autograd.Function):
    """Quantise to integers in [qmin, qmax] and back; straight-through gradient inside the range."""

    @staticmethod
    def forward(ctx, x, scale, zero_point, qmin, qmax):
        # TODO: clamp(round(x / scale) + zero_point, qmin, qmax), then dequantise; save the mask
        raise NotImplementedError("FakeQuant.forward")

    @staticmethod
    def backward(ctx, grad_output):
        # TODO: pass the gradient where the value was not clipped; None for the other four inputs
        raise NotImplementedError("FakeQuant.backward")
