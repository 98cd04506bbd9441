def partition_layers(costs, k):
    n = len(costs)
    if not 1 <= k <= n:
        raise ValueError("bad k")
    target = sum(costs) / k
    bounds, run = [0], 0.0
    for i, c in enumerate(costs):
        # close the stage once it would pass the average, keeping enough layers for the remaining stages
        if run + c > target and run > 0 and len(bounds) < k and n - i >= k - len(bounds):
            bounds.append(i)
            run = 0.0
        run += c
    while len(bounds) < k:
        bounds.append(n - (k - len(bounds)))
    return bounds + [n]
