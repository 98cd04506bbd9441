import math

import torch


def tp_attention(x, wq, wk, wv, wo, n_heads, tp):
    """Multi-head self-attention with heads sharded over `tp` simulated ranks.

    Returns (out, partials): partials[r] is rank r's row-parallel output projection of its own heads,
    and out = sum(partials), the all-reduce.
    """
    # TODO: rank r owns heads r*H/tp .. (r+1)*H/tp: their columns of wq, wk, wv and their rows of wo
    raise NotImplementedError("tp_attention")
