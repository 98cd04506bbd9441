import torch


def ring_all_reduce(tensors, send):
    """Sum `tensors` (one 1-D tensor per rank) with a ring: P-1 reduce-scatter steps, then P-1 all-gather steps.

    `send(src, dst, t)` moves a tensor from rank src to rank dst and returns the copy dst receives.
    Returns a list of P new tensors, each the element-wise sum of all inputs.
    """
    p = len(tensors)
    # each rank works on its own copy, cut into P equal chunks
    chunks = [list(t.detach().clone().chunk(p)) for t in tensors]
    # reduce-scatter: at step s, rank r passes its partial sum of chunk (r - s) to rank r + 1
    for step in range(p - 1):
        arrived = []
        for r in range(p):
            c = (r - step) % p
            arrived.append(((r + 1) % p, c, send(r, (r + 1) % p, chunks[r][c])))
        for dst, c, data in arrived:
            chunks[dst][c] = chunks[dst][c] + data
    # now rank r holds the full sum of chunk (r + 1) % P
    # all-gather: at step s, rank r forwards the finished chunk (r + 1 - s) to rank r + 1
    for step in range(p - 1):
        arrived = []
        for r in range(p):
            c = (r + 1 - step) % p
            arrived.append(((r + 1) % p, c, send(r, (r + 1) % p, chunks[r][c])))
        for dst, c, data in arrived:
            chunks[dst][c] = data
    return [torch.cat(c) for c in chunks]
