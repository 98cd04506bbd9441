def warp_reduce(values, width=32, mode="down"):
    """Simulate a warp-level tree reduction over 32 lanes; returns every lane's value at the end."""
    lanes = list(values)
    offset = 1
    while offset < width:
        got = []
        for lane in range(32):  # all lanes read first, then all write: a shuffle is one simultaneous step
            if mode == "xor":
                src = lane ^ offset
            else:
                src = lane + offset if lane % width + offset < width else lane  # out of range: own value
            got.append(lanes[src])
        lanes = [v + g for v, g in zip(lanes, got)]
        offset *= 2
    return lanes
