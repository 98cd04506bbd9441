import torch


class Collectives:
    """reduce-scatter and all-gather simulated over P ranks; every byte between ranks goes through send."""

    @staticmethod
    def reduce_scatter(tensors, send):
        """tensors: P equal 1-D tensors. Returns P shards; shard r = chunk r of the element-wise sum."""
        p = len(tensors)
        parts = [list(t.detach().clone().chunk(p)) for t in tensors]
        # ring: at step s rank r passes its partial sum of chunk (r - 1 - s) to the right,
        # so after P-1 steps rank r has summed chunk r over all ranks
        for step in range(p - 1):
            arrived = []
            for r in range(p):
                c = (r - 1 - step) % p
                dst = (r + 1) % p
                arrived.append((dst, c, send(r, dst, parts[r][c])))
            for dst, c, data in arrived:
                parts[dst][c] = parts[dst][c] + data
        return [parts[r][r] for r in range(p)]

    @staticmethod
    def all_gather(shards, send):
        """shards: P equal 1-D tensors, shard r on rank r. Returns P full tensors: cat(shard 0, ..., shard P-1)."""
        p = len(shards)
        have = [{r: shards[r].detach().clone()} for r in range(p)]
        # ring: at step s rank r forwards the shard that originated on rank (r - s)
        for step in range(p - 1):
            arrived = []
            for r in range(p):
                origin = (r - step) % p
                dst = (r + 1) % p
                arrived.append((dst, origin, send(r, dst, have[r][origin])))
            for dst, origin, data in arrived:
                have[dst][origin] = data
        return [torch.cat([have[r][c] for c in range(p)]) for r in range(p)]
