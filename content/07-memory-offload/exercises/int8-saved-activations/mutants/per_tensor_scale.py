import torch


class Int8SavedLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        scale = x.abs().amax() / 127  # one scale for the whole tensor
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        q = torch.round(x / scale).clamp(-127, 127).to(torch.int8)
        ctx.save_for_backward(q, scale, weight)
        return x @ weight.T

    @staticmethod
    def backward(ctx, grad_output):
        q, scale, weight = ctx.saved_tensors
        return grad_output @ weight, grad_output.T @ (q.to(scale.dtype) * scale)
