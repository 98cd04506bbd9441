def roofline(op, peak_flops, bandwidth):
    """FLOPs, bytes, arithmetic intensity, ridge point, bound and attainable FLOP/s of one operation."""
    # TODO: 1. flops and bytes for "gemm" (2MNK; A, B read once, C written once) or "elementwise"
    #          (k inputs read, 1 output written), times dtype_bytes; ValueError for any other kind
    #       2. intensity = flops / bytes, ridge = peak_flops / bandwidth
    #       3. bound: "memory" below the ridge, else "compute"; attainable = min(peak, intensity * bandwidth)
    raise NotImplementedError("roofline")
