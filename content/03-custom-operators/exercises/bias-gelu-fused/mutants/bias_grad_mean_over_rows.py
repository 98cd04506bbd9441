import math

import torch


class BiasGelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias):
        ctx.save_for_backward(x, bias)
        u = x + bias
        return 0.5 * u * (1.0 + torch.erf(u / math.sqrt(2.0)))

    @staticmethod
    def backward(ctx, grad_output):
        x, bias = ctx.saved_tensors
        u = x + bias
        cdf = 0.5 * (1.0 + torch.erf(u / math.sqrt(2.0)))
        pdf = torch.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)
        grad_u = grad_output * (cdf + u * pdf)
        return grad_u, grad_u.reshape(-1, bias.shape[-1]).mean(dim=0)
