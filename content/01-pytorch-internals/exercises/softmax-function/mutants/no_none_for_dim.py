import torch


class Softmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, dim):
        e = (x - x.amax(dim=dim, keepdim=True)).exp()
        y = e / e.sum(dim=dim, keepdim=True)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        inner = (grad_output * y).sum(dim=ctx.dim, keepdim=True)
        return y * (grad_output - inner)
