import torch


class Collectives:
    @staticmethod
    def reduce_scatter(tensors, send):
        p = len(tensors)
        parts = [list(t.detach().clone().chunk(p)) for t in tensors]
        for step in range(p - 1):
            arrived = []
            for r in range(p):
                c = (r - 1 - step) % p
                arrived.append(((r + 1) % p, c, send(r, (r + 1) % p, parts[r][c])))
            for dst, c, data in arrived:
                parts[dst][c] = parts[dst][c] + data
        return [parts[r][r] for r in range(p)]

    @staticmethod
    def all_gather(shards, send):
        p = len(shards)
        got = [[shards[r].detach().clone()] for r in range(p)]  # own shard first, then whatever arrives
        for step in range(p - 1):
            received = [send(r, (r + 1) % p, got[r][-1]) for r in range(p)]
            for r in range(p):
                got[(r + 1) % p].append(received[r])
        return [torch.cat(g) for g in got]
