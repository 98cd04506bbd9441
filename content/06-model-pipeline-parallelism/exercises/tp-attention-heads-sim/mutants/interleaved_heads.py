import math

import torch


def tp_attention(x, wq, wk, wv, wo, n_heads, tp):
    if n_heads % tp:
        raise ValueError("uneven")
    b, s, d = x.shape
    hd = d // n_heads
    partials = []
    for r in range(tp):
        mine = range(r, n_heads, tp)  # round-robin heads: rank r gets r, r + tp, ...
        part = 0
        for h in mine:
            cols = slice(h * hd, (h + 1) * hd)
            q, k, v = (x @ w[:, cols] for w in (wq, wk, wv))
            att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(hd), dim=-1)
            part = part + (att @ v) @ wo[cols, :]
        partials.append(part)
    return torch.stack(partials).sum(0), partials
