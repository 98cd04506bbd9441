def zero_memory(num_params, num_gpus, stage, param_bytes=2, grad_bytes=2, optimizer_bytes=12):
    """Per-GPU bytes of model states under DDP (stage 0) and ZeRO stages 1-3.

    Mixed-precision Adam by default: fp16/bf16 parameters (2 B), fp16/bf16 gradients (2 B) and
    12 B of optimizer state (fp32 master weights, momentum, variance) per parameter.
    """
    if stage not in (0, 1, 2, 3):
        raise ValueError(f"stage must be 0 (DDP), 1, 2 or 3, got {stage!r}")
    n = num_params
    params = param_bytes * n
    grads = grad_bytes * n
    optimizer = optimizer_bytes * n
    if stage >= 1:
        optimizer /= num_gpus
    if stage >= 2:
        grads /= num_gpus
    if stage >= 3:
        params /= num_gpus
    return {"params": params, "grads": grads, "optimizer_states": optimizer, "total": params + grads + optimizer}
