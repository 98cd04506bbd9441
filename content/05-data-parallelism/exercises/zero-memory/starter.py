def zero_memory(num_params, num_gpus, stage, param_bytes=2, grad_bytes=2, optimizer_bytes=12):
    """Per-GPU bytes of model states under DDP (stage 0) and ZeRO stages 1-3.

    Mixed-precision Adam by default: fp16/bf16 parameters (2 B), fp16/bf16 gradients (2 B) and
    12 B of optimizer state (fp32 master weights, momentum, variance) per parameter.

    Returns {"params": ..., "grads": ..., "optimizer_states": ..., "total": ...} in bytes per GPU.
    """
    # TODO: start from the replicated sizes; stage 1 shards the optimizer states over num_gpus,
    #       stage 2 also the gradients, stage 3 also the parameters; reject any other stage
    raise NotImplementedError("zero_memory")
