import torch


class FakeQuant(torch.autograd.Function):
    """Quantise to integers in [qmin, qmax] and back; straight-through gradient inside the range."""

    @staticmethod
    def forward(ctx, x, scale, zero_point, qmin, qmax):
        q_raw = torch.round(x / scale) + zero_point
        mask = (q_raw >= qmin) & (q_raw <= qmax)
        ctx.save_for_backward(mask)
        q = q_raw.clamp(qmin, qmax)
        return (q - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_output):
        (mask,) = ctx.saved_tensors
        return grad_output * mask.to(grad_output.dtype), None, None, None, None
