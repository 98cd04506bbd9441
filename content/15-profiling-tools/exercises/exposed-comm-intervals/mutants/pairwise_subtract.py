def _union(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def comm_breakdown(compute, comm):
    """Merges the comm kernels, then subtracts each compute kernel's overlap one by one."""
    for start, end in list(compute) + list(comm):
        if end < start:
            raise ValueError(f"interval ({start}, {end}) ends before it starts")
    comm_u = _union(comm)
    comm_time = sum(end - start for start, end in comm_u)
    hidden = 0
    for cs, ce in comm_u:
        for s, e in compute:
            hidden += max(0, min(ce, e) - max(cs, s))
    return {
        "comm_time": comm_time,
        "exposed_comm": comm_time - hidden,
        "overlap_fraction": hidden / comm_time if comm_time else 0.0,
    }
