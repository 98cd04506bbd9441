"""The reference with the learner's signature."""

import torch.nn.functional as F


def reference_layer_norm(x, weight, bias, eps):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
