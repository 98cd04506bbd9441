def one_f_one_b(p, m):
    """Non-interleaved 1F1B: for each of p stages, its ordered list of ("F", i) and ("B", i) ops over m micro-batches."""
    schedule = []
    for s in range(p):
        warmup = min(p - s - 1, m)  # forwards in flight before the first backward reaches this stage
        ops = [("F", i) for i in range(warmup)]
        nxt_f, nxt_b = warmup, 0
        # steady state: one forward, then one backward
        while nxt_f < m:
            ops.append(("F", nxt_f))
            nxt_f += 1
            ops.append(("B", nxt_b))
            nxt_b += 1
        # cool-down: drain the remaining backwards
        ops.extend(("B", i) for i in range(nxt_b, m))
        schedule.append(ops)
    return schedule
