import torch


def sparsify_2_4(w):
    # 50% unstructured sparsity per row: the right ratio, but not the 2:4 pattern
    out_f, in_f = w.shape
    if in_f % 4 != 0:
        raise ValueError("in_features must be a multiple of 4")
    keep = torch.sort(w.abs(), dim=-1, descending=True, stable=True).indices[:, : in_f // 2].sort(dim=-1).values
    mask = torch.zeros(w.shape, dtype=torch.bool).scatter_(-1, keep, True)
    values = w.gather(-1, keep)
    return mask, values, keep % 4
