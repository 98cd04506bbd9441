import math

import torch


def tiled_attention(q, k, v, block_size, on_block=None):
    """softmax(q @ k^T / sqrt(E)) @ v over key blocks of block_size, with a running max m and running sum l.

    q: (B, H, L, E), k: (B, H, S, E), v: (B, H, S, Ev), float64. Returns (B, H, L, Ev).
    After each block, call on_block(end, m, l) when given (end: keys processed so far; m, l: (B, H, L)).
    """
    raise NotImplementedError("tiled_attention")
