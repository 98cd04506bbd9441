import torch


def sparsify_2_4(w):
    """2:4 structured sparsity along the input dim of a (out_features, in_features) weight.

    Returns (mask, values, indices):
      mask    bool (out, in): exactly 2 True in every group of 4 consecutive columns, at the
              2 largest |w| (on a tie the lower position wins);
      values  (out, in // 2): the kept weights, in position order within each group;
      indices int64 (out, in // 2): each kept weight's position 0..3 inside its group (the 2-bit metadata).
    """
    out_f, in_f = w.shape
    if in_f % 4 != 0:
        raise ValueError(f"in_features must be a multiple of 4 for 2:4 sparsity, got {in_f}")
    groups = w.reshape(out_f, in_f // 4, 4)
    order = torch.sort(groups.abs(), dim=-1, descending=True, stable=True).indices
    keep = order[..., :2].sort(dim=-1).values  # the two winners, in position order
    mask = torch.zeros(groups.shape, dtype=torch.bool).scatter_(-1, keep, True)
    values = groups.gather(-1, keep)
    return mask.reshape(out_f, in_f), values.reshape(out_f, in_f // 2), keep.reshape(out_f, in_f // 2)
