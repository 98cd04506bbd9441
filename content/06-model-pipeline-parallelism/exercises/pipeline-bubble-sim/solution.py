def simulate_gpipe(p, m, t_f=1.0, t_b=2.0):
    """Discrete-time GPipe schedule: p stages, m micro-batches, forward t_f and backward t_b per stage.

    Returns {"forward": [[start of F(s, i)]], "backward": [[start of B(s, i)]], "makespan", "bubble_fraction"}.
    """
    fwd = [[0.0] * m for _ in range(p)]
    bwd = [[0.0] * m for _ in range(p)]
    free = [0.0] * p  # when each stage finishes its current op
    # forward phase: F(s, i) needs F(s-1, i) and a free stage s
    for i in range(m):
        for s in range(p):
            ready = fwd[s - 1][i] + t_f if s > 0 else 0.0
            fwd[s][i] = max(ready, free[s])
            free[s] = fwd[s][i] + t_f
    # flush, then backward in reverse micro-batch order: B(s, i) needs B(s+1, i) (or F(p-1, i) on the last stage)
    for i in reversed(range(m)):
        for s in reversed(range(p)):
            ready = bwd[s + 1][i] + t_b if s < p - 1 else fwd[s][i] + t_f
            bwd[s][i] = max(ready, free[s])
            free[s] = bwd[s][i] + t_b
    makespan = max(free)
    busy = m * (t_f + t_b)  # per stage
    bubble = 1.0 - busy / makespan  # idle share of all p * makespan stage-time
    return {"forward": fwd, "backward": bwd, "makespan": makespan, "bubble_fraction": bubble}
