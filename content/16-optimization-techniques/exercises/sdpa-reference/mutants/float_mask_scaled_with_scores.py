import math

import torch


def sdpa(query, key, value, attn_mask=None, is_causal=False, scale=None):
    if attn_mask is not None and is_causal:
        raise ValueError("attn_mask and is_causal=True cannot be used together")
    L, S = query.size(-2), key.size(-2)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    scores = query @ key.transpose(-2, -1)
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    scores = scores * scale
    row_ok = (scores > float("-inf")).any(dim=-1, keepdim=True)
    p = torch.softmax(scores.masked_fill(~row_ok, 0.0), dim=-1)
    p = torch.where(row_ok, p, torch.zeros_like(p))
    return p @ value
