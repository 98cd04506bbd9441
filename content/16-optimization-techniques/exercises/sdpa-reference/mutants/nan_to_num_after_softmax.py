import math

import torch


def sdpa(query, key, value, attn_mask=None, is_causal=False, scale=None):
    if attn_mask is not None and is_causal:
        raise ValueError("attn_mask and is_causal=True cannot be used together")
    L, S = query.size(-2), key.size(-2)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    scores = query @ key.transpose(-2, -1) * scale
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    p = torch.softmax(scores, dim=-1).nan_to_num(0.0)  # zeros forward, NaN backward
    return p @ value
