import torch


def ring_all_reduce(tensors, send):
    """Sum `tensors` (one 1-D tensor per rank) with a ring: P-1 reduce-scatter steps, then P-1 all-gather steps.

    `send(src, dst, t)` moves a tensor from rank src to rank dst and returns the copy dst receives.
    Returns a list of P new tensors, each the element-wise sum of all inputs.
    """
    # TODO: cut every rank's copy into P chunks; reduce-scatter, then all-gather, sending only to (r + 1) % P
    raise NotImplementedError("ring_all_reduce")
