import math

import torch

C = math.sqrt(2.0 / math.pi)


class BiasGelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias):
        ctx.save_for_backward(x, bias)
        u = x + bias
        return 0.5 * u * (1.0 + torch.tanh(C * (u + 0.044715 * u ** 3)))

    @staticmethod
    def backward(ctx, grad_output):
        x, bias = ctx.saved_tensors
        u = x + bias
        t = torch.tanh(C * (u + 0.044715 * u ** 3))
        d = 0.5 * (1.0 + t) + 0.5 * u * (1.0 - t * t) * C * (1.0 + 3 * 0.044715 * u * u)
        grad_u = grad_output * d
        return grad_u, grad_u.reshape(-1, bias.shape[-1]).sum(0)
