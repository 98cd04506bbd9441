import torch


def tiled_matmul(A, B, tile_m=32, tile_n=32, tile_k=32):
    """C = A @ B computed one (tile_m x tile_n) block of C at a time, streaming tile_k-wide slabs of K.

    Returns (C, elements_loaded): elements_loaded counts every element of A and B copied into a tile.
    """
    M, K = A.shape
    K2, N = B.shape
    if K != K2:
        raise ValueError(f"inner dimensions differ: {K} and {K2}")
    C = torch.empty(M, N, dtype=A.dtype)
    loaded = 0
    for i0 in range(0, M, tile_m):
        i1 = min(i0 + tile_m, M)
        for j0 in range(0, N, tile_n):
            j1 = min(j0 + tile_n, N)
            acc = torch.zeros(i1 - i0, j1 - j0, dtype=A.dtype)
            for k0 in range(0, K, tile_k):
                k1 = min(k0 + tile_k, K)
                a = A[i0:i1, k0:k1]
                b = B[k0:k1, j0:j1]
                loaded += a.numel() + b.numel()
                acc = a @ b
            C[i0:i1, j0:j1] = acc
    return C, loaded
