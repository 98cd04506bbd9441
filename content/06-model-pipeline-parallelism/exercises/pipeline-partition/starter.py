def partition_layers(costs, k):
    """Split layers with these costs into k contiguous, non-empty stages, minimising the largest stage cost.

    Returns k + 1 boundaries [0, b1, ..., n]: stage j holds layers bounds[j] .. bounds[j + 1] - 1.
    """
    # TODO: dynamic programming over (stages used, layers covered), or binary search on the answer
    raise NotImplementedError("partition_layers")
