import copy

import torch
from torch import nn


def fold_conv_bn(conv, bn):
    """A new conv equal to bn(conv(x)) with bn in eval mode; conv and bn are left unchanged."""
    # TODO: s = gamma / sqrt(running_var + eps) per output channel;
    #       W' = W * s (along dim 0), b' = (b - running_mean) * s + beta (b = 0 when the conv has no bias)
    raise NotImplementedError("fold_conv_bn")
