import copy

import torch
from torch import nn


def fold_conv_bn(conv, bn):
    """A new conv equal to bn(conv(x)) with bn in eval mode; conv and bn are left unchanged."""
    fused = copy.deepcopy(conv)
    with torch.no_grad():
        std = torch.sqrt(bn.running_var + 1e-5)
        gamma = bn.weight if bn.weight is not None else torch.ones_like(std)
        beta = bn.bias if bn.bias is not None else torch.zeros_like(std)
        bias = conv.bias if conv.bias is not None else torch.zeros_like(std)
        s = gamma / std  # one factor per output channel
        fused.weight.copy_(conv.weight * s.view(-1, *([1] * (conv.weight.dim() - 1))))
        fused.bias = nn.Parameter((bias - bn.running_mean) * s + beta)
    return fused
