import math

import torch


def attention_backward(q, k, v, o, do, lse, block_size):
    """Gradients (dq, dk, dv) of O = softmax(Q K^T / sqrt(E)) V, one key/value block at a time.

    q: (B, H, L, E), k: (B, H, S, E), v: (B, H, S, Ev), o and do: (B, H, L, Ev), lse: (B, H, L); float64.
    Recompute P = exp(S - lse) per block; D = rowsum(dO * O).
    """
    raise NotImplementedError("attention_backward")
