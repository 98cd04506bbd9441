def _union(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def comm_breakdown(compute, comm):
    """Adds up each comm kernel's duration and its uncovered part, without merging the comm kernels."""
    for start, end in list(compute) + list(comm):
        if end < start:
            raise ValueError(f"interval ({start}, {end}) ends before it starts")
    busy = _union(compute)
    comm_time = exposed = 0
    for start, end in comm:
        covered = sum(max(0, min(end, e) - max(start, s)) for s, e in busy)
        comm_time += end - start
        exposed += end - start - covered
    return {
        "comm_time": comm_time,
        "exposed_comm": exposed,
        "overlap_fraction": (comm_time - exposed) / comm_time if comm_time else 0.0,
    }
