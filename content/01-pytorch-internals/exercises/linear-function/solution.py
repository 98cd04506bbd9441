import torch


class LinearFunction(torch.autograd.Function):
    """y = x @ weight.T + bias, for x of shape (..., in), weight (out, in), bias (out,) or None."""

    @staticmethod
    def forward(ctx, x, weight, bias=None):
        ctx.save_for_backward(x, weight)
        ctx.has_bias = bias is not None
        out = x @ weight.T
        if bias is not None:
            out = out + bias
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        grad_x = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_output @ weight
        if ctx.needs_input_grad[1]:
            g2 = grad_output.reshape(-1, weight.shape[0])
            grad_weight = g2.T @ x.reshape(-1, weight.shape[1])
        if ctx.has_bias and ctx.needs_input_grad[2]:
            grad_bias = grad_output.reshape(-1, weight.shape[0]).sum(0)
        return grad_x, grad_weight, grad_bias
