def partition_layers(costs, k):
    n = len(costs)
    if not 1 <= k <= n:
        raise ValueError("bad k")
    # the default of many pipeline wrappers: the same number of layers per stage
    return [round(j * n / k) for j in range(k + 1)]
