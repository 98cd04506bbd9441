import math

import torch


def sampler_indices(dataset_len, num_replicas, rank, epoch=0, shuffle=True, seed=0, drop_last=False):
    """The indices torch.utils.data.DistributedSampler yields on `rank` in `epoch`."""
    if drop_last and dataset_len % num_replicas != 0:
        num_samples = math.ceil((dataset_len - num_replicas) / num_replicas)
    else:
        num_samples = math.ceil(dataset_len / num_replicas)
    total_size = num_samples * num_replicas

    if shuffle:
        g = torch.Generator()
        g.manual_seed(seed + epoch)  # every rank computes the same permutation
        indices = torch.randperm(dataset_len, generator=g).tolist()
    else:
        indices = list(range(dataset_len))

    if drop_last:
        indices = indices[:total_size]
    else:
        padding = total_size - len(indices)
        repeats = math.ceil(padding / len(indices)) if padding else 0
        indices += (indices * repeats)[:padding]

    return indices[rank * num_samples:(rank + 1) * num_samples]
