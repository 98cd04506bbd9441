import math

import torch


def tp_attention(x, wq, wk, wv, wo, n_heads, tp):
    """Multi-head self-attention with heads sharded over `tp` simulated ranks.

    Returns (out, partials): partials[r] is rank r's row-parallel output projection of its own heads,
    and out = sum(partials), the all-reduce.
    """
    if n_heads % tp:
        raise ValueError(f"n_heads={n_heads} is not divisible by tp={tp}")
    b, s, d = x.shape
    hd = d // n_heads
    local = n_heads // tp  # heads per rank
    width = local * hd  # columns of wq/wk/wv (and rows of wo) per rank
    partials = []
    for r in range(tp):
        cols = slice(r * width, (r + 1) * width)

        def heads(w):
            # column-parallel projection, then (B, S, local, hd) -> (B, local, S, hd)
            return (x @ w[:, cols]).reshape(b, s, local, hd).transpose(1, 2)

        q, k, v = heads(wq), heads(wk), heads(wv)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        ctx = torch.softmax(scores, dim=-1) @ v  # (B, local, S, hd)
        ctx = ctx.transpose(1, 2).reshape(b, s, width)
        # row-parallel output projection: this rank's rows of wo
        partials.append(ctx @ wo[cols, :])
    return torch.stack(partials).sum(0), partials
