import math

import torch


class BiasGelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias):
        u = x + bias
        ctx.save_for_backward(u)
        ctx.hidden = bias.shape[-1]
        return 0.5 * u * (1.0 + torch.erf(u / math.sqrt(2.0)))

    @staticmethod
    def backward(ctx, grad_output):
        (u,) = ctx.saved_tensors
        cdf = 0.5 * (1.0 + torch.erf(u / math.sqrt(2.0)))
        pdf = torch.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)
        grad_u = grad_output * (cdf + u * pdf)
        return grad_u, grad_u.reshape(-1, ctx.hidden).sum(0)
