def partition_layers(costs, k):
    n = len(costs)
    if not 1 <= k <= n:
        raise ValueError("bad k")

    def greedy(limit):
        bounds, run = [0], 0
        for i, c in enumerate(costs):
            if run + c > limit:
                bounds.append(i)
                run = 0
            run += c
        return bounds + [n]

    lo, hi = max(costs), sum(costs)
    while lo < hi:  # binary search on the bottleneck (integer costs)
        mid = (lo + hi) // 2
        if len(greedy(mid)) - 1 <= k:
            hi = mid
        else:
            lo = mid + 1
    return greedy(lo)  # may use fewer than k stages
