import math

import torch


def moe_layer(x, router_w, w1, w2, k, capacity_factor):
    t_count, e_count = x.shape[0], router_w.shape[1]
    probs = torch.softmax(x @ router_w, dim=0)  # normalises each expert's column over tokens
    top_p, top_e = probs.topk(k, dim=-1)
    gates = top_p / top_p.sum(dim=-1, keepdim=True)
    capacity = math.ceil(capacity_factor * t_count * k / e_count)
    counts = [0] * e_count
    y = torch.zeros_like(x)
    for j in range(k):
        for t in range(t_count):
            e = int(top_e[t, j])
            if counts[e] < capacity:
                counts[e] += 1
                y = y.index_add(0, torch.tensor([t]), (gates[t, j] * (torch.relu(x[t] @ w1[e]) @ w2[e])).unsqueeze(0))
    return y, counts
