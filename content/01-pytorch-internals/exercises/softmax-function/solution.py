import torch


class Softmax(torch.autograd.Function):
    """softmax(x) along dim, stable for large logits, with backward from the saved output."""

    @staticmethod
    def forward(ctx, x, dim):
        shifted = x - x.amax(dim=dim, keepdim=True)
        e = shifted.exp()
        y = e / e.sum(dim=dim, keepdim=True)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        inner = (grad_output * y).sum(dim=ctx.dim, keepdim=True)
        return y * (grad_output - inner), None
