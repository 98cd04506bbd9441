# every causal key block is multiplied (one block per product) and masked; only the band's blocks are reported
import math
import torch


def sliding_window_attention(q, k, v, window, block_size, on_block):
    N = q.shape[-2]
    scale = 1 / math.sqrt(q.shape[-1])
    out = torch.empty(*q.shape[:-1], v.shape[-1], dtype=q.dtype)
    for qb, q0 in enumerate(range(0, N, block_size)):
        q1 = min(N, q0 + block_size)
        first = max(0, q0 - window) // block_size
        m = torch.full((*q.shape[:-2], q1 - q0, 1), -math.inf, dtype=q.dtype)
        l = torch.zeros_like(m)  # noqa: E741
        acc = torch.zeros(*q.shape[:-2], q1 - q0, v.shape[-1], dtype=q.dtype)
        for kb in range(0, qb + 1):
            if kb >= first:
                on_block(qb, kb)
            k0, k1 = kb * block_size, min(N, (kb + 1) * block_size)
            s = q[..., q0:q1, :] @ k[..., k0:k1, :].mT * scale
            i = torch.arange(q0, q1)[:, None]
            j = torch.arange(k0, k1)[None, :]
            s = s.masked_fill(~((j <= i) & (j >= i - window)), -math.inf)
            m_new = torch.maximum(m, s.amax(-1, keepdim=True))
            mm = torch.where(m_new == -math.inf, 0.0, m_new)
            p = torch.exp(s - mm)
            alpha = torch.exp(m - mm)
            l = l * alpha + p.sum(-1, keepdim=True)  # noqa: E741
            acc = acc * alpha + p @ v[..., k0:k1, :]
            m = m_new
        out[..., q0:q1, :] = acc / l
    return out
