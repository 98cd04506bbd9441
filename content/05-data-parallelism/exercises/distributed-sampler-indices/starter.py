import math

import torch


def sampler_indices(dataset_len, num_replicas, rank, epoch=0, shuffle=True, seed=0, drop_last=False):
    """The indices torch.utils.data.DistributedSampler yields on `rank` in `epoch`."""
    # TODO: 1. samples per rank (ceil, or the drop_last rule) and total_size
    #       2. the permutation from a Generator seeded with seed + epoch (or range when not shuffling)
    #       3. pad by repeating from the start (or cut the tail with drop_last) to total_size
    #       4. take every num_replicas-th index starting at rank
    raise NotImplementedError("sampler_indices")
