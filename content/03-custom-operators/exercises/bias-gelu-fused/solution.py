import math

import torch

INV_SQRT2 = 1.0 / math.sqrt(2.0)
INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


class BiasGelu(torch.autograd.Function):
    """gelu(x + bias) (exact, erf form) in one op; backward recomputes u = x + bias."""

    @staticmethod
    def forward(ctx, x, bias):
        ctx.save_for_backward(x, bias)
        u = x + bias
        return 0.5 * u * (1.0 + torch.erf(u * INV_SQRT2))

    @staticmethod
    def backward(ctx, grad_output):
        x, bias = ctx.saved_tensors
        u = x + bias
        cdf = 0.5 * (1.0 + torch.erf(u * INV_SQRT2))
        pdf = torch.exp(-0.5 * u * u) * INV_SQRT_2PI
        grad_u = grad_output * (cdf + u * pdf)
        grad_bias = grad_u.reshape(-1, bias.shape[-1]).sum(dim=0)
        return grad_u, grad_bias
