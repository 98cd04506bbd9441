"""Tests for the training-memory estimator: model states, ZeRO stages, activations, logits, total, bad input."""

GB = 1e9
MODEL_7B = dict(n_params=7e9, n_layers=32, hidden=4096, n_heads=32, seq_len=4096, micro_batch=1, vocab=32000)
KEYS = ("weights", "grads", "optimizer", "activations", "logits", "total")


def _run(entry, **kw):
    cfg = dict(MODEL_7B)
    cfg.update(kw)
    res = entry(**cfg)
    assert isinstance(res, dict), f"expected a dict of byte counts, got {type(res).__name__}"
    missing = [k for k in KEYS if k not in res]
    assert not missing, f"the result lacks the key(s) {missing}; expected {list(KEYS)}"
    return res


def _close(label, got, want, why):
    assert abs(got - want) <= 1e-9 * max(abs(want), 1.0), (
        f"{label}: expected {want:,.0f} bytes ({want / GB:.4g} GB), got {got:,.0f} bytes ({got / GB:.4g} GB); {why}"
    )


def test_7b_model_states(entry):
    r = _run(entry)
    _close("7B weights", r["weights"], 14e9, "bf16 weights take 2 bytes per parameter")
    _close("7B grads", r["grads"], 14e9, "bf16 gradients take 2 bytes per parameter")
    _close("7B optimizer", r["optimizer"], 84e9, "fp32 master weights (4) + Adam m (4) + Adam v (4) = 12 bytes per parameter")
    states = r["weights"] + r["grads"] + r["optimizer"]
    _close("7B model states", states, 112e9, "16 bytes per parameter in all")


def test_zero_stages(entry):
    psi, n = 7e9, 8
    want = {0: 16 * psi, 1: 4 * psi + 12 * psi / n, 2: 2 * psi + 14 * psi / n, 3: 16 * psi / n}
    text = {0: "16 Psi", 1: "4 Psi + 12 Psi / N", 2: "2 Psi + 14 Psi / N", 3: "16 Psi / N"}
    for stage in (0, 1, 2, 3):
        r = _run(entry, dp=n, zero_stage=stage)
        states = r["weights"] + r["grads"] + r["optimizer"]
        _close(f"ZeRO-{stage}, N={n}: weights + grads + optimizer per GPU", states, want[stage],
               f"ZeRO-{stage} keeps {text[stage]}: stage 1 shards the optimizer states, stage 2 also the gradients, "
               "stage 3 also the weights")
    r = _run(entry, dp=1, zero_stage=3)
    _close("ZeRO-3 with N=1", r["weights"] + r["grads"] + r["optimizer"], 16 * psi, "one rank shards nothing")
    r = _run(entry, dp=8, zero_stage=0)
    _close("plain data parallel (ZeRO-0), N=8", r["optimizer"], 12 * psi, "without ZeRO every rank keeps every state")


def test_activations_without_flash_attention(entry):
    r = _run(entry, flash_attention=False)
    sbh = 4096 * 1 * 4096
    per_layer = 34 * sbh + 5 * 32 * 4096 * 4096 * 1
    _close("7B, s=4096, b=1, no FlashAttention: activations", r["activations"], 32 * per_layer,
           "per layer 34·s·b·h + 5·a·s²·b bytes (the second term is the stored s×s attention scores, one per head), times 32 layers")


def test_activations_with_flash_attention(entry):
    r = _run(entry, flash_attention=True)
    _close("7B, s=4096, b=1, FlashAttention: activations", r["activations"], 32 * 34 * 4096 * 4096,
           "FlashAttention stores no s×s scores: 34·s·b·h bytes per layer, times 32 layers")
    r = _run(entry, flash_attention=True, micro_batch=4, seq_len=2048)
    _close("7B, s=2048, b=4, FlashAttention: activations", r["activations"], 32 * 34 * 2048 * 4 * 4096,
           "activations grow with s·b: 34·s·b·h per layer")


def test_full_recompute(entry):
    sbh = 4096 * 4096
    r = _run(entry, recompute=True)
    _close("7B, full recompute, FlashAttention: activations", r["activations"], 2 * sbh * 32 + 34 * sbh,
           "each layer keeps only its 16-bit input (2·s·b·h), and backward rebuilds one layer at a time (one layer's 34·s·b·h)")
    r = _run(entry, recompute=True, flash_attention=False)
    _close("7B, full recompute, no FlashAttention: activations", r["activations"],
           2 * sbh * 32 + 34 * sbh + 5 * 32 * 4096 * 4096, "2·s·b·h per layer plus one complete layer's working set, scores included")


def test_logits(entry):
    r = _run(entry)
    _close("7B, s=4096, b=1, vocab 32000: logits", r["logits"], 4096 * 32000 * 10,
           "bf16 logits (2) + their fp32 copy for the loss (4) + its gradient (4) = 10 bytes per s·b·V element")
    r = _run(entry, vocab=128256, micro_batch=2)
    _close("vocab 128256, b=2: logits", r["logits"], 4096 * 2 * 128256 * 10, "10 bytes per s·b·V element")


def test_total_is_the_sum(entry):
    for kw in (dict(), dict(dp=8, zero_stage=3), dict(dp=4, zero_stage=2, flash_attention=False, recompute=True)):
        r = _run(entry, **kw)
        parts = sum(r[k] for k in KEYS[:-1])
        _close(f"total for {kw or 'the defaults'}", r["total"], parts, "total = weights + grads + optimizer + activations + logits")


def test_bad_arguments(entry):
    for kw, why in ((dict(zero_stage=4), "zero_stage=4"), (dict(dp=0), "dp=0")):
        try:
            _run(entry, **kw)
        except ValueError:
            continue
        except Exception as exc:  # noqa: BLE001
            assert False, f"{why} should raise ValueError, got {type(exc).__name__}: {exc}"
        assert False, f"{why} should raise ValueError (ZeRO stages are 0-3, and dp counts ranks, at least 1)"
