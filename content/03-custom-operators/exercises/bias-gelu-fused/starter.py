import math

import torch

INV_SQRT2 = 1.0 / math.sqrt(2.0)
INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


class BiasGelu(torch.autograd.Function):
    """gelu(x + bias) (exact, erf form) in one op; backward recomputes u = x + bias."""

    @staticmethod
    def forward(ctx, x, bias):
        # TODO: save the inputs (not u, not the output), then return gelu(x + bias) with the erf formula
        raise NotImplementedError("BiasGelu.forward")

    @staticmethod
    def backward(ctx, grad_output):
        # TODO: recompute u = x + bias; grad_u = grad_output * (Phi(u) + u * phi(u));
        #       grad_bias = grad_u summed over every dimension except the last
        raise NotImplementedError("BiasGelu.backward")
