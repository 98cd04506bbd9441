import math

import torch


def tp_attention(x, wq, wk, wv, wo, n_heads, tp):
    if n_heads % tp:
        raise ValueError("uneven")
    b, s, d = x.shape
    hd = d // n_heads
    local = n_heads // tp
    width = local * hd
    partials = []
    for r in range(tp):
        cols = slice(r * width, (r + 1) * width)
        q, k, v = ((x @ w[:, cols]).reshape(b, s, local, hd).transpose(1, 2) for w in (wq, wk, wv))
        att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), dim=-1)  # model width, not head width
        partials.append((att @ v).transpose(1, 2).reshape(b, s, width) @ wo[cols, :])
    return torch.stack(partials).sum(0), partials
