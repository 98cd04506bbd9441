import torch


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        e = torch.exp(-x)
        return x / (1 + e)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        e = torch.exp(-x)
        s = 1 / (1 + e)
        return grad_output * (s + x * e / (1 + e) ** 2)
