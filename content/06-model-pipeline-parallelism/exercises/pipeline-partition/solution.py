def partition_layers(costs, k):
    """Split layers with these costs into k contiguous, non-empty stages, minimising the largest stage cost.

    Returns k + 1 boundaries [0, b1, ..., n]: stage j holds layers bounds[j] .. bounds[j + 1] - 1.
    """
    n = len(costs)
    if not 1 <= k <= n:
        raise ValueError(f"cannot split {n} layers into {k} non-empty stages")
    prefix = [0.0]
    for c in costs:
        prefix.append(prefix[-1] + c)
    inf = float("inf")
    # best[j][i]: smallest possible max stage cost when the first i layers form j stages
    best = [[inf] * (n + 1) for _ in range(k + 1)]
    cut = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0.0
    for j in range(1, k + 1):
        for i in range(j, n - (k - j) + 1):  # leave at least one layer for each later stage
            for t in range(j - 1, i):  # stage j is layers t .. i-1
                value = max(best[j - 1][t], prefix[i] - prefix[t])
                if value < best[j][i]:
                    best[j][i], cut[j][i] = value, t
    bounds = [n]
    for j in range(k, 0, -1):
        bounds.append(cut[j][bounds[-1]])
    return bounds[::-1]
