def _union(intervals):
    """Sorted, disjoint pieces covering the same time as `intervals`."""
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def _intersection_length(a, b):
    i = j = 0
    total = 0
    while i < len(a) and j < len(b):
        total += max(0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        i += 1
        j += 1
    return total


def comm_breakdown(compute, comm):
    """Total, exposed (not covered by compute) and hidden share of communication time on one timeline."""
    for start, end in list(compute) + list(comm):
        if end < start:
            raise ValueError(f"interval ({start}, {end}) ends before it starts")
    comm_u = _union(comm)
    comm_time = sum(end - start for start, end in comm_u)
    hidden = _intersection_length(comm_u, _union(compute))
    return {
        "comm_time": comm_time,
        "exposed_comm": comm_time - hidden,
        "overlap_fraction": hidden / comm_time if comm_time else 0.0,
    }
