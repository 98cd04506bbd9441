import math

import torch


def sliding_window_attention(q, k, v, window, block_size, on_block):
    """Causal sliding-window attention (query i sees keys i - window .. i) over banded blocks.

    q, k: (B, H, N, E), v: (B, H, N, Ev), float64 -> (B, H, N, Ev).
    Call on_block(query_block, key_block) for each block pair you compute; compute only pairs that meet the band.
    """
    raise NotImplementedError("sliding_window_attention")
