import torch


def tiled_matmul(A, B, tile_m=32, tile_n=32, tile_k=32):
    """C = A @ B computed one (tile_m x tile_n) block of C at a time, streaming tile_k-wide slabs of K.

    Returns (C, elements_loaded): elements_loaded counts every element of A and B copied into a tile.
    """
    # TODO: loop over blocks of rows (i) and columns (j) of C; for each, accumulate over blocks of K;
    #       clip every block at the matrix edge; count the elements of each A and B tile you use
    raise NotImplementedError("tiled_matmul")
