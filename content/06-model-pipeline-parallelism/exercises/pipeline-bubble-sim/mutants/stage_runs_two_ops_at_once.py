def simulate_gpipe(p, m, t_f=1.0, t_b=2.0):
    fwd = [[0.0] * m for _ in range(p)]
    bwd = [[0.0] * m for _ in range(p)]
    for i in range(m):
        for s in range(p):
            fwd[s][i] = fwd[s - 1][i] + t_f if s else i * t_f
    for i in reversed(range(m)):
        for s in reversed(range(p)):
            # only dependencies, never "is this stage still busy?"
            bwd[s][i] = bwd[s + 1][i] + t_b if s < p - 1 else fwd[s][i] + t_f
    makespan = max(bwd[s][i] + t_b for s in range(p) for i in range(m))
    return {"forward": fwd, "backward": bwd, "makespan": makespan, "bubble_fraction": 1 - m * (t_f + t_b) / makespan}
