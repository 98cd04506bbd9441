import torch


def merge_bn_stats(counts, means, variances):
    """Global per-channel batch statistics from per-rank (count, mean, biased variance).

    counts: ints, samples per channel on each rank (N_i * H * W); means, variances: (C,) tensors.
    Returns (total, mean, var, unbiased_var): var is the biased variance used to normalise,
    unbiased_var = var * total / (total - 1) feeds running_var.
    """
    keep = [i for i, n in enumerate(counts) if n > 0]  # empty ranks send zeros/NaN: skip them
    n = torch.tensor([float(counts[i]) for i in keep], dtype=torch.float64).unsqueeze(1)
    mu = torch.stack([means[i] for i in keep]).to(torch.float64)
    var = torch.stack([variances[i] for i in keep]).to(torch.float64)
    total = int(n.sum())
    mean = mu.mean(0)
    # within-rank spread plus the spread of the rank means around the global mean
    merged = (n * (var + (mu - mean) ** 2)).sum(0) / total
    return total, mean, merged, merged * total / (total - 1)
