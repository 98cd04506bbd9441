import math

import torch


def moe_layer(x, router_w, w1, w2, k, capacity_factor):
    """Top-k MoE layer with a per-expert capacity; overflowing assignments are dropped.

    x (T, D), router_w (D, E), w1 (E, D, H), w2 (E, H, D). Returns (y, counts): y (T, D) and the number of
    token assignments each expert processed.
    """
    t_count, e_count = x.shape[0], router_w.shape[1]
    probs = torch.softmax(x @ router_w, dim=-1)  # over experts
    top_p, top_e = probs.topk(k, dim=-1)  # (T, k), best choice first
    gates = top_p / top_p.sum(dim=-1, keepdim=True)  # renormalised over the k chosen experts
    capacity = math.ceil(capacity_factor * t_count * k / e_count)

    # slot assignment: all first choices (in token order), then all second choices, ...
    counts = [0] * e_count
    kept = [[] for _ in range(e_count)]  # per expert: (token, choice) pairs it will process
    for j in range(k):
        for t in range(t_count):
            e = int(top_e[t, j])
            if counts[e] < capacity:
                counts[e] += 1
                kept[e].append((t, j))

    y = torch.zeros_like(x)
    for e in range(e_count):
        if not kept[e]:
            continue
        tok = torch.tensor([t for t, _ in kept[e]])
        slot = torch.tensor([j for _, j in kept[e]])
        h = torch.relu(x[tok] @ w1[e]) @ w2[e]  # the expert runs once on its batch of tokens
        y = y.index_add(0, tok, gates[tok, slot].unsqueeze(-1) * h)
    return y, counts
