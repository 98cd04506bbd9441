import torch
import torch.nn.functional as F


def megatron_mlp(x, w1, b1, w2, b2, tp):
    size = w1.shape[1] // tp
    partials = []
    for r in range(tp):
        cols = slice(r * size, (r + 1) * size)
        partials.append(F.gelu(x @ w1[:, cols] + b1[cols]) @ w2[cols, :] + b2)  # each rank adds the bias
    return torch.stack(partials).sum(0), partials
