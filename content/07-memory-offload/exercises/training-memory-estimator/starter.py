def estimate_training_memory(n_params, n_layers, hidden, n_heads, seq_len, micro_batch, vocab,
                             dp=1, zero_stage=0, flash_attention=True, recompute=False):
    """Per-GPU bytes for bf16 mixed-precision Adam training of a GPT-style model, with optional ZeRO sharding."""
    # TODO: model states (2 + 2 + 12 bytes per parameter, sharded by ZeRO stage), activations, logits, total
    raise NotImplementedError("estimate_training_memory")
