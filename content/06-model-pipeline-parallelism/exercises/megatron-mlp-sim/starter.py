import torch
import torch.nn.functional as F


def megatron_mlp(x, w1, b1, w2, b2, tp):
    """gelu(x @ w1 + b1) @ w2 + b2 computed on `tp` simulated ranks, Megatron style.

    w1 is split by columns (column-parallel), w2 by rows (row-parallel). Returns (out, partials):
    partials[r] is rank r's output before the all-reduce (without b2); out = sum(partials) + b2.
    """
    # TODO: for each rank r take its block of w1's columns, b1 and w2's rows; sum the partials, add b2 once
    raise NotImplementedError("megatron_mlp")
