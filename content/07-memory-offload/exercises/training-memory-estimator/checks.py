"""Tests for the training-memory estimator: model states, ZeRO stages, activations, logits, total, bad input."""

from quiz.grader.say import say

GB = 1e9
MODEL_7B = dict(n_params=7e9, n_layers=32, hidden=4096, n_heads=32, seq_len=4096, micro_batch=1, vocab=32000)
KEYS = ("weights", "grads", "optimizer", "activations", "logits", "total")


def _run(entry, **kw):
    cfg = dict(MODEL_7B)
    cfg.update(kw)
    res = entry(**cfg)
    assert isinstance(res, dict), say(f"expected a dict of byte counts, got {type(res).__name__}",
                                      f"应返回字节数组成的 dict，实际返回了 {type(res).__name__}")
    missing = [k for k in KEYS if k not in res]
    assert not missing, say(f"the result lacks the key(s) {missing}; expected {list(KEYS)}",
                            f"结果缺少键 {missing}；应包含 {list(KEYS)}")
    return res


def _close(label, got, want, why):
    assert abs(got - want) <= 1e-9 * max(abs(want), 1.0), say(
        f"{label}: expected {want:,.0f} bytes ({want / GB:.4g} GB), got {got:,.0f} bytes ({got / GB:.4g} GB); {why}",
        f"{label}：应为 {want:,.0f} 字节（{want / GB:.4g} GB），实际是 {got:,.0f} 字节（{got / GB:.4g} GB）；{why}",
    )


def test_7b_model_states(entry):
    r = _run(entry)
    _close(say("7B weights", "7B 权重"), r["weights"], 14e9,
           say("bf16 weights take 2 bytes per parameter", "bf16 权重每个参数占 2 字节"))
    _close(say("7B grads", "7B 梯度"), r["grads"], 14e9,
           say("bf16 gradients take 2 bytes per parameter", "bf16 梯度每个参数占 2 字节"))
    _close(say("7B optimizer", "7B 优化器状态"), r["optimizer"], 84e9,
           say("fp32 master weights (4) + Adam m (4) + Adam v (4) = 12 bytes per parameter",
               "fp32 master weights (4) + Adam m (4) + Adam v (4) = 每个参数 12 字节"))
    states = r["weights"] + r["grads"] + r["optimizer"]
    _close(say("7B model states", "7B 的 model states"), states, 112e9, say("16 bytes per parameter in all", "每个参数合计 16 字节"))


def test_zero_stages(entry):
    psi, n = 7e9, 8
    want = {0: 16 * psi, 1: 4 * psi + 12 * psi / n, 2: 2 * psi + 14 * psi / n, 3: 16 * psi / n}
    text = {0: "16 Psi", 1: "4 Psi + 12 Psi / N", 2: "2 Psi + 14 Psi / N", 3: "16 Psi / N"}
    for stage in (0, 1, 2, 3):
        r = _run(entry, dp=n, zero_stage=stage)
        states = r["weights"] + r["grads"] + r["optimizer"]
        _close(say(f"ZeRO-{stage}, N={n}: weights + grads + optimizer per GPU", f"ZeRO-{stage}，N={n}：每块 GPU 的 weights + grads + optimizer"),
               states, want[stage],
               say(f"ZeRO-{stage} keeps {text[stage]}: stage 1 shards the optimizer states, stage 2 also the gradients, "
                   "stage 3 also the weights",
                   f"ZeRO-{stage} 保存 {text[stage]}：stage 1 切分优化器状态，stage 2 再加上梯度，"
                   "stage 3 再加上权重"))
    r = _run(entry, dp=1, zero_stage=3)
    _close(say("ZeRO-3 with N=1", "ZeRO-3，N=1"), r["weights"] + r["grads"] + r["optimizer"], 16 * psi,
           say("one rank shards nothing", "只有一个 rank 时什么都不切分"))
    r = _run(entry, dp=8, zero_stage=0)
    _close(say("plain data parallel (ZeRO-0), N=8", "普通数据并行（ZeRO-0），N=8"), r["optimizer"], 12 * psi,
           say("without ZeRO every rank keeps every state", "不用 ZeRO 时每个 rank 都保存全部状态"))


def test_activations_without_flash_attention(entry):
    r = _run(entry, flash_attention=False)
    sbh = 4096 * 1 * 4096
    per_layer = 34 * sbh + 5 * 32 * 4096 * 4096 * 1
    _close(say("7B, s=4096, b=1, no FlashAttention: activations", "7B，s=4096，b=1，不用 FlashAttention：激活"),
           r["activations"], 32 * per_layer,
           say("per layer 34·s·b·h + 5·a·s²·b bytes (the second term is the stored s×s attention scores, one per head), times 32 layers",
               "每层 34·s·b·h + 5·a·s²·b 字节（第二项是保存下来的 s×s attention score，每个 head 一份），乘以 32 层"))


def test_activations_with_flash_attention(entry):
    r = _run(entry, flash_attention=True)
    _close(say("7B, s=4096, b=1, FlashAttention: activations", "7B，s=4096，b=1，FlashAttention：激活"),
           r["activations"], 32 * 34 * 4096 * 4096,
           say("FlashAttention stores no s×s scores: 34·s·b·h bytes per layer, times 32 layers",
               "FlashAttention 不保存 s×s 的 score：每层 34·s·b·h 字节，乘以 32 层"))
    r = _run(entry, flash_attention=True, micro_batch=4, seq_len=2048)
    _close(say("7B, s=2048, b=4, FlashAttention: activations", "7B，s=2048，b=4，FlashAttention：激活"),
           r["activations"], 32 * 34 * 2048 * 4 * 4096,
           say("activations grow with s·b: 34·s·b·h per layer", "激活随 s·b 增长：每层 34·s·b·h"))


def test_full_recompute(entry):
    sbh = 4096 * 4096
    r = _run(entry, recompute=True)
    _close(say("7B, full recompute, FlashAttention: activations", "7B，完全重计算，FlashAttention：激活"),
           r["activations"], 2 * sbh * 32 + 34 * sbh,
           say("each layer keeps only its 16-bit input (2·s·b·h), and backward rebuilds one layer at a time (one layer's 34·s·b·h)",
               "每层只保存它的 16-bit 输入（2·s·b·h），backward 时一次重建一层（一层的 34·s·b·h）"))
    r = _run(entry, recompute=True, flash_attention=False)
    _close(say("7B, full recompute, no FlashAttention: activations", "7B，完全重计算，不用 FlashAttention：激活"),
           r["activations"], 2 * sbh * 32 + 34 * sbh + 5 * 32 * 4096 * 4096,
           say("2·s·b·h per layer plus one complete layer's working set, scores included",
               "每层 2·s·b·h，再加上一整层的工作集（包括 score）"))


def test_logits(entry):
    r = _run(entry)
    _close(say("7B, s=4096, b=1, vocab 32000: logits", "7B，s=4096，b=1，vocab 32000：logits"), r["logits"], 4096 * 32000 * 10,
           say("bf16 logits (2) + their fp32 copy for the loss (4) + its gradient (4) = 10 bytes per s·b·V element",
               "bf16 logits (2) + 为算 loss 准备的 fp32 副本 (4) + 它的梯度 (4) = 每个 s·b·V 元素 10 字节"))
    r = _run(entry, vocab=128256, micro_batch=2)
    _close(say("vocab 128256, b=2: logits", "vocab 128256，b=2：logits"), r["logits"], 4096 * 2 * 128256 * 10,
           say("10 bytes per s·b·V element", "每个 s·b·V 元素 10 字节"))


def test_total_is_the_sum(entry):
    for kw in (dict(), dict(dp=8, zero_stage=3), dict(dp=4, zero_stage=2, flash_attention=False, recompute=True)):
        r = _run(entry, **kw)
        parts = sum(r[k] for k in KEYS[:-1])
        _close(say(f"total for {kw or 'the defaults'}", f"{kw or '默认参数'} 下的 total"), r["total"], parts,
               say("total = weights + grads + optimizer + activations + logits",
                   "total = weights + grads + optimizer + activations + logits"))


def test_bad_arguments(entry):
    for kw, why in ((dict(zero_stage=4), "zero_stage=4"), (dict(dp=0), "dp=0")):
        try:
            _run(entry, **kw)
        except ValueError:
            continue
        except Exception as exc:  # noqa: BLE001
            assert False, say(f"{why} should raise ValueError, got {type(exc).__name__}: {exc}",
                              f"{why} 应抛出 ValueError，实际抛出了 {type(exc).__name__}: {exc}")
        assert False, say(f"{why} should raise ValueError (ZeRO stages are 0-3, and dp counts ranks, at least 1)",
                          f"{why} 应抛出 ValueError（ZeRO stage 只有 0-3，dp 是 rank 数，至少为 1）")
