import torch


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias=None):
        ctx.save_for_backward(x, weight)
        ctx.has_bias = bias is not None
        out = x @ weight.T
        return out + bias if bias is not None else out

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        g2 = grad_output.reshape(-1, weight.shape[0])
        grad_x = grad_output @ weight
        grad_weight = g2.T @ x.reshape(-1, weight.shape[1])
        grad_bias = g2.sum(0) if ctx.has_bias else None
        return grad_x, grad_weight, grad_bias
