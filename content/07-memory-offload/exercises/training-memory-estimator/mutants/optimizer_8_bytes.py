def estimate_training_memory(n_params, n_layers, hidden, n_heads, seq_len, micro_batch, vocab,
                             dp=1, zero_stage=0, flash_attention=True, recompute=False):
    if zero_stage not in (0, 1, 2, 3):
        raise ValueError(f"zero_stage must be 0, 1, 2 or 3, not {zero_stage!r}")
    if dp < 1:
        raise ValueError(f"dp must be at least 1, not {dp!r}")
    psi = n_params
    # model states: each stage shards one more of them over the dp ranks
    weights = 2 * psi / (dp if zero_stage >= 3 else 1)  # bf16 weights
    grads = 2 * psi / (dp if zero_stage >= 2 else 1)  # bf16 gradients
    optimizer = 8 * psi / (dp if zero_stage >= 1 else 1)  # Adam m and v (forgets the fp32 master weights)

    # activations of one layer, 16-bit (Korthikanti et al.): 34 sbh, plus 5 a s^2 b for the attention scores
    sbh = seq_len * micro_batch * hidden
    per_layer = 34 * sbh
    if not flash_attention:
        per_layer += 5 * n_heads * seq_len * seq_len * micro_batch
    if recompute:
        # keep each layer's 16-bit input; rebuild one layer at a time in backward
        activations = 2 * sbh * n_layers + per_layer
    else:
        activations = per_layer * n_layers

    # bf16 logits, their fp32 copy for the loss, and that copy's gradient
    logits = seq_len * micro_batch * vocab * (2 + 4 + 4)

    total = weights + grads + optimizer + activations + logits
    return {"weights": weights, "grads": grads, "optimizer": optimizer,
            "activations": activations, "logits": logits, "total": total}
