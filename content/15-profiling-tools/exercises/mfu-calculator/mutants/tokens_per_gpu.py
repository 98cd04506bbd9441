def training_efficiency(n_params, tokens_per_s, n_gpus, peak_flops_per_gpu, tokens_per_s_one_gpu,
                        n_layers=0, seq_len=0, d_model=0):
    """FLOPs per token, achieved FLOP/s, MFU and weak-scaling efficiency of a training job."""
    if n_params <= 0 or tokens_per_s < 0 or n_gpus < 1 or peak_flops_per_gpu <= 0 or tokens_per_s_one_gpu <= 0:
        raise ValueError("impossible training figures")
    # forward 2N + backward 4N, plus the parameter-free attention matmuls over the full T x T scores
    flops_per_token = 6 * n_params + 12 * n_layers * seq_len * d_model
    achieved = tokens_per_s * n_gpus * flops_per_token  # tokens_per_s read as one GPU's throughput
    return {
        "flops_per_token": flops_per_token,
        "achieved_flops": achieved,
        "mfu": tokens_per_s * flops_per_token / peak_flops_per_gpu,
        "scaling_efficiency": (tokens_per_s / n_gpus) / tokens_per_s_one_gpu,
    }
