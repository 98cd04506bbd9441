import torch


class LayerNorm(torch.autograd.Function):
    """Layer normalisation over the last dimension, with a hand-written backward."""

    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        # TODO: normalise x over its last dim (biased variance), scale by weight, shift by bias
        raise NotImplementedError("LayerNorm.forward")

    @staticmethod
    def backward(ctx, grad_output):
        # TODO: return (grad_x, grad_weight, grad_bias, None)
        raise NotImplementedError("LayerNorm.backward")
