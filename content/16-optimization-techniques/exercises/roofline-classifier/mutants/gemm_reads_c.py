def roofline(op, peak_flops, bandwidth):
    """FLOPs, bytes, arithmetic intensity, ridge point, bound and attainable FLOP/s of one operation."""
    size = op["dtype_bytes"]
    if op["kind"] == "gemm":
        m, n, k = op["M"], op["N"], op["K"]
        flops = 2 * m * n * k
        nbytes = (m * k + k * n + 2 * m * n) * size  # read A and B, read C and write it back
    elif op["kind"] == "elementwise":
        flops = op["n"] * op["flops_per_element"]
        nbytes = op["n"] * (op["inputs"] + 1) * size
    else:
        raise ValueError(f"unknown op kind {op['kind']!r}")
    intensity = flops / nbytes
    ridge = peak_flops / bandwidth
    return {
        "flops": flops,
        "bytes": nbytes,
        "intensity": intensity,
        "ridge": ridge,
        "bound": "memory" if intensity < ridge else "compute",
        "attainable": min(peak_flops, intensity * bandwidth),
    }
