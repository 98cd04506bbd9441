def warp_reduce(values, width=32, mode="down"):
    """values: 32 floats, one per lane. Reduce within segments of `width` lanes with __shfl_down_sync
    (mode "down": lane 0 of each segment ends with the sum) or __shfl_xor_sync (mode "xor": every lane does).
    Return the 32 lane values at the end."""
    lanes = list(values)
    # TODO: offsets width/2, ..., 1; in each step every lane reads its source lane's value, then all add at once
    raise NotImplementedError("warp_reduce")
