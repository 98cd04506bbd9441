def warp_reduce(values, width=32, mode="down"):
    lanes = list(values)
    offset = width // 2
    while offset >= 1:
        for lane in range(32):  # writes while other lanes still read: not one simultaneous step
            if mode == "xor":
                src = lane ^ offset
            else:
                src = lane + offset if lane % width + offset < width else lane
            lanes[lane] = lanes[lane] + lanes[src]
        offset //= 2
    return lanes
