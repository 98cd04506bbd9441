def roofline(op, peak_flops, bandwidth):
    """FLOPs, bytes, arithmetic intensity, ridge point, bound and attainable FLOP/s of one operation."""
    size = op["dtype_bytes"]
    if op["kind"] == "gemm":
        m, n, k = op["M"], op["N"], op["K"]
        flops = 2 * m * n * k
        nbytes = (m * k + k * n + m * n) * size  # read A and B once, write C once
    elif op["kind"] == "elementwise":
        flops = op["n"] * op["flops_per_element"]
        nbytes = op["n"] * (op["inputs"] + 1) * size
    else:
        raise ValueError(f"unknown op kind {op['kind']!r}")
    intensity = flops / nbytes
    ridge = bandwidth / peak_flops
    return {
        "flops": flops,
        "bytes": nbytes,
        "intensity": intensity,
        "ridge": ridge,
        "bound": "memory" if intensity < ridge else "compute",
        "attainable": min(peak_flops, intensity * bandwidth),
    }
