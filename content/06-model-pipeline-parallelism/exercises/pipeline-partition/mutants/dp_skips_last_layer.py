def partition_layers(costs, k):
    n = len(costs)
    if not 1 <= k <= n:
        raise ValueError("bad k")
    prefix = [0]
    for c in costs:
        prefix.append(prefix[-1] + c)
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(k + 1)]
    cut = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0
    for j in range(1, k + 1):
        for i in range(j, n + 1):
            for t in range(j - 1, i - 1):  # off by one: a stage never consists of the single layer i-1
                value = max(best[j - 1][t], prefix[i] - prefix[t])
                if value < best[j][i]:
                    best[j][i], cut[j][i] = value, t
    bounds = [n]
    for j in range(k, 0, -1):
        bounds.append(cut[j][bounds[-1]])
    return bounds[::-1]
