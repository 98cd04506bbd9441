def one_f_one_b(p, m):
    schedule = []
    for s in range(p):
        warmup = min(p - s - 1, m)
        ops = [("F", i) for i in range(warmup)]
        f, b = warmup, 0
        while f < m:
            ops += [("B", b), ("F", f)]  # steady state as "1B1F"
            f, b = f + 1, b + 1
        ops += [("B", i) for i in range(b, m)]
        schedule.append(ops)
    return schedule
