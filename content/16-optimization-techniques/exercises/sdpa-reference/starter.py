import math

import torch


def sdpa(query, key, value, attn_mask=None, is_causal=False, scale=None):
    """scaled_dot_product_attention's semantics by hand (dropout 0).

    query (..., L, E), key (..., S, E), value (..., S, Ev) -> (..., L, Ev).
    Boolean attn_mask: True takes part. Float attn_mask: added. is_causal: tril(ones(L, S)), top-left.
    """
    raise NotImplementedError("sdpa")
