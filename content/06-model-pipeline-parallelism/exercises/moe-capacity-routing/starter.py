import math

import torch


def moe_layer(x, router_w, w1, w2, k, capacity_factor):
    """Top-k MoE layer with a per-expert capacity; overflowing assignments are dropped.

    x (T, D), router_w (D, E), w1 (E, D, H), w2 (E, H, D). Returns (y, counts): y (T, D) and the number of
    token assignments each expert processed.
    """
    # TODO: route (softmax, top-k, renormalise), fill each expert up to its capacity, run experts, combine
    raise NotImplementedError("moe_layer")
