import torch


def sparsify_2_4(w):
    """2:4 structured sparsity along the input dim of a (out_features, in_features) weight.

    Returns (mask, values, indices):
      mask    bool (out, in): exactly 2 True in every group of 4 consecutive columns, at the
              2 largest |w| (on a tie the lower position wins);
      values  (out, in // 2): the kept weights, in position order within each group;
      indices int64 (out, in // 2): each kept weight's position 0..3 inside its group (the 2-bit metadata).
    """
    # TODO: check in_features % 4; view as (out, in // 4, 4); rank |w| in each group (stable on ties);
    #       keep the top 2 in position order; build the mask, the values and the indices
    raise NotImplementedError("sparsify_2_4")
