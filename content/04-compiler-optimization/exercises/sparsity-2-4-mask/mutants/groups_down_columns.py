import torch


def sparsify_2_4(w):
    # groups of 4 consecutive *rows* (output features) instead of 4 consecutive input columns
    out_f, in_f = w.shape
    if in_f % 4 != 0:
        raise ValueError("in_features must be a multiple of 4")
    wt = w.t().contiguous()
    groups = wt.reshape(in_f, out_f // 4, 4)
    keep = torch.sort(groups.abs(), dim=-1, descending=True, stable=True).indices[..., :2].sort(dim=-1).values
    mask = torch.zeros(groups.shape, dtype=torch.bool).scatter_(-1, keep, True).reshape(in_f, out_f).t()
    values = w[mask].reshape(out_f, in_f // 2)
    indices = torch.nonzero(mask)[:, 1].reshape(out_f, in_f // 2) % 4
    return mask, values, indices
