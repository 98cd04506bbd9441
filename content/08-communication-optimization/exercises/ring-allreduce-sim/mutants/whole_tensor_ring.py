import torch


def ring_all_reduce(tensors, send):
    # naive ring: pass the whole running buffer around; the sum is right, the volume is (P-1) * N
    p = len(tensors)
    acc = [t.detach().clone() for t in tensors]
    passing = [t.detach().clone() for t in tensors]
    for _ in range(p - 1):
        received = [send(r, (r + 1) % p, passing[r]) for r in range(p)]
        passing = [received[(r - 1) % p] for r in range(p)]
        acc = [acc[r] + passing[r] for r in range(p)]
    return acc
