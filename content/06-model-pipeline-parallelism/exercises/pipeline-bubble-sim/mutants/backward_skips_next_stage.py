def simulate_gpipe(p, m, t_f=1.0, t_b=2.0):
    fwd = [[0.0] * m for _ in range(p)]
    bwd = [[0.0] * m for _ in range(p)]
    free = [0.0] * p
    for i in range(m):
        for s in range(p):
            fwd[s][i] = max(fwd[s - 1][i] + t_f if s else 0.0, free[s])
            free[s] = fwd[s][i] + t_f
    for i in reversed(range(m)):
        for s in reversed(range(p)):
            bwd[s][i] = free[s]  # each stage starts backward as soon as it is idle
            free[s] = bwd[s][i] + t_b
    makespan = max(free)
    return {"forward": fwd, "backward": bwd, "makespan": makespan, "bubble_fraction": 1 - m * (t_f + t_b) / makespan}
