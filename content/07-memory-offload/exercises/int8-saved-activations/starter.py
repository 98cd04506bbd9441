import torch


class Int8SavedLinear(torch.autograd.Function):
    """y = x @ weight.T, keeping x for backward only as int8 with one scale per row."""

    @staticmethod
    def forward(ctx, x, weight):
        # TODO: per-row scale = amax(|x|) / 127 (guard zero rows), q = round(x / scale) as int8;
        #       save q, scale and weight -- not x -- and return x @ weight.T
        raise NotImplementedError("Int8SavedLinear.forward")

    @staticmethod
    def backward(ctx, grad_output):
        # TODO: grad_x = grad_output @ weight; grad_weight = grad_output.T @ dequantised x
        raise NotImplementedError("Int8SavedLinear.backward")
