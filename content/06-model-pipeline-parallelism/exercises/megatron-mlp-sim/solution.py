import torch
import torch.nn.functional as F


def megatron_mlp(x, w1, b1, w2, b2, tp):
    """gelu(x @ w1 + b1) @ w2 + b2 computed on `tp` simulated ranks, Megatron style.

    w1 is split by columns (column-parallel), w2 by rows (row-parallel). Returns (out, partials):
    partials[r] is rank r's output before the all-reduce (without b2); out = sum(partials) + b2.
    """
    ffn = w1.shape[1]
    if ffn % tp:
        raise ValueError(f"the hidden size {ffn} is not divisible by tp={tp}")
    size = ffn // tp
    partials = []
    for r in range(tp):
        cols = slice(r * size, (r + 1) * size)
        # column-parallel: each rank owns a slice of the hidden units, so GeLU needs no communication
        h = F.gelu(x @ w1[:, cols] + b1[cols])
        # row-parallel: the matching rows of w2 give a partial sum of the full output
        partials.append(h @ w2[cols, :])
    # g: the all-reduce (a sum) in forward; the bias is added once, after it
    out = torch.stack(partials).sum(0) + b2
    return out, partials
