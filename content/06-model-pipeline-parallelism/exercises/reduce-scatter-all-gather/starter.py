import torch


class Collectives:
    """reduce-scatter and all-gather simulated over P ranks; every byte between ranks goes through send."""

    @staticmethod
    def reduce_scatter(tensors, send):
        """tensors: P equal 1-D tensors. Returns P shards; shard r = chunk r of the element-wise sum."""
        # TODO: each rank may send only N/P elements per message; rank r must end with chunk r of the sum
        raise NotImplementedError("Collectives.reduce_scatter")

    @staticmethod
    def all_gather(shards, send):
        """shards: P equal 1-D tensors, shard r on rank r. Returns P full tensors: cat(shard 0, ..., shard P-1)."""
        # TODO: every rank needs every shard, placed by the rank it came from
        raise NotImplementedError("Collectives.all_gather")
