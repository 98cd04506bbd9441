def training_efficiency(n_params, tokens_per_s, n_gpus, peak_flops_per_gpu, tokens_per_s_one_gpu,
                        n_layers=0, seq_len=0, d_model=0):
    """FLOPs per token, achieved FLOP/s, MFU and weak-scaling efficiency of a training job."""
    # TODO: 1. reject impossible inputs with ValueError
    #       2. flops_per_token = 6N + 12 * n_layers * seq_len * d_model
    #       3. achieved_flops, mfu (a fraction of the whole job's peak)
    #       4. scaling_efficiency from per-GPU throughput
    raise NotImplementedError("training_efficiency")
