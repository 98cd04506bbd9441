import math

import torch


def sliding_window_attention(q, k, v, window, block_size, on_block):
    n = q.shape[-2]
    scale = 1.0 / math.sqrt(q.shape[-1])
    out = torch.empty(*q.shape[:-1], v.shape[-1], dtype=q.dtype)
    for qb in range(0, (n + block_size - 1) // block_size):
        q0, q1 = qb * block_size, min(n, (qb + 1) * block_size)
        k0 = max(0, q0 - window) // block_size * block_size  # first key block that meets the band
        k1 = min(n, q1 + window)  # the band reaches window keys past the query too
        for kb in range(k0 // block_size, (k1 - 1) // block_size + 1):
            on_block(qb, kb)
        i = torch.arange(q0, q1)[:, None]
        j = torch.arange(k0, k1)[None, :]
        keep = (j - i).abs() <= window
        s = q[..., q0:q1, :] @ k[..., k0:k1, :].transpose(-1, -2) * scale
        p = torch.softmax(s.masked_fill(~keep, float("-inf")), dim=-1)
        out[..., q0:q1, :] = p @ v[..., k0:k1, :]
    return out
