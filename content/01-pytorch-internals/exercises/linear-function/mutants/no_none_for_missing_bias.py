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
        grad_x = grad_weight = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_output @ weight
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.reshape(-1, weight.shape[0]).T @ x.reshape(-1, weight.shape[1])
        if ctx.has_bias:
            return grad_x, grad_weight, grad_output.reshape(-1, weight.shape[0]).sum(0)
        return grad_x, grad_weight
