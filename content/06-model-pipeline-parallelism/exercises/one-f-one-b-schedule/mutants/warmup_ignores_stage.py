def one_f_one_b(p, m):
    schedule = []
    for s in range(p):
        warmup = min(p - 1, m)  # the same warm-up on every stage
        ops = [("F", i) for i in range(warmup)]
        f, b = warmup, 0
        while f < m:
            ops += [("F", f), ("B", b)]
            f, b = f + 1, b + 1
        ops += [("B", i) for i in range(b, m)]
        schedule.append(ops)
    return schedule
