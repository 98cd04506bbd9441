import torch


def merge_bn_stats(counts, means, variances):
    """Global per-channel batch statistics from per-rank (count, mean, biased variance).

    counts: ints, samples per channel on each rank (N_i * H * W); means, variances: (C,) tensors.
    Returns (total, mean, var, unbiased_var): var is the biased variance used to normalise,
    unbiased_var = var * total / (total - 1) feeds running_var.
    """
    # TODO: skip ranks with count 0; weight each rank's mean by its count;
    #       var = sum n_i * (var_i + (mean_i - mean)^2) / total; then the unbiased version
    raise NotImplementedError("merge_bn_stats")
