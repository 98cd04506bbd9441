import torch


class Collectives:
    @staticmethod
    def reduce_scatter(tensors, send):
        p = len(tensors)
        parts = [list(t.detach().clone().chunk(p)) for t in tensors]
        for step in range(p - 1):
            arrived = []
            for r in range(p):
                c = (r - step) % p  # the all-reduce indexing: rank r finishes chunk r + 1, not chunk r
                arrived.append(((r + 1) % p, c, send(r, (r + 1) % p, parts[r][c])))
            for dst, c, data in arrived:
                parts[dst][c] = parts[dst][c] + data
        return [parts[r][(r + 1) % p] for r in range(p)]

    @staticmethod
    def all_gather(shards, send):
        p = len(shards)
        have = [{r: shards[r].detach().clone()} for r in range(p)]
        for step in range(p - 1):
            arrived = []
            for r in range(p):
                origin = (r - step) % p
                arrived.append(((r + 1) % p, origin, send(r, (r + 1) % p, have[r][origin])))
            for dst, origin, data in arrived:
                have[dst][origin] = data
        return [torch.cat([have[r][c] for c in range(p)]) for r in range(p)]
