def simulate_gpipe(p, m, t_f=1.0, t_b=2.0):
    fwd = [[0.0] * m for _ in range(p)]
    bwd = [[0.0] * m for _ in range(p)]
    free = [0.0] * p
    last_start = 0.0
    for i in range(m):
        for s in range(p):
            fwd[s][i] = max(fwd[s - 1][i] + t_f if s else 0.0, free[s])
            free[s] = fwd[s][i] + t_f
    for i in reversed(range(m)):
        for s in reversed(range(p)):
            ready = bwd[s + 1][i] + t_b if s < p - 1 else fwd[s][i] + t_f
            bwd[s][i] = max(ready, free[s])
            free[s] = bwd[s][i] + t_b
            last_start = max(last_start, bwd[s][i])
    makespan = last_start  # when the last op starts, not when it ends
    return {"forward": fwd, "backward": bwd, "makespan": makespan, "bubble_fraction": 1 - m * (t_f + t_b) / makespan}
