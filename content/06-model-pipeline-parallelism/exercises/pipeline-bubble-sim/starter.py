def simulate_gpipe(p, m, t_f=1.0, t_b=2.0):
    """Discrete-time GPipe schedule: p stages, m micro-batches, forward t_f and backward t_b per stage.

    Returns {"forward": [[start of F(s, i)]], "backward": [[start of B(s, i)]], "makespan", "bubble_fraction"}.
    """
    # TODO: start every op as early as its dependency and its stage allow; then measure the idle share
    raise NotImplementedError("simulate_gpipe")
