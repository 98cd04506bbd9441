import torch


class Softmax(torch.autograd.Function):
    """softmax(x) along dim, stable for large logits, with backward from the saved output."""

    @staticmethod
    def forward(ctx, x, dim):
        # TODO: subtract the max along dim, exponentiate, normalise; save the output
        raise NotImplementedError("Softmax.forward")

    @staticmethod
    def backward(ctx, grad_output):
        # TODO: y * (g - sum(g * y, dim, keepdim=True)), and None for dim
        raise NotImplementedError("Softmax.backward")
