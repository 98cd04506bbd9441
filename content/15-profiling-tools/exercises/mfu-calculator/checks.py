"""Worked MFU and scaling-efficiency figures, and the usual slips (forward only, peak of one GPU, speedup, percent)."""

import math

from quiz.grader.say import say

KEYS = ("flops_per_token", "achieved_flops", "mfu", "scaling_efficiency")
A100_BF16 = 312e12  # dense BF16 tensor-core peak of an A100, FLOP/s


def reference(n_params, tokens_per_s, n_gpus, peak_flops_per_gpu, tokens_per_s_one_gpu, n_layers=0, seq_len=0,
              d_model=0):
    per_token = 6 * n_params + 12 * n_layers * seq_len * d_model
    achieved = tokens_per_s * per_token
    return {
        "flops_per_token": per_token,
        "achieved_flops": achieved,
        "mfu": achieved / (n_gpus * peak_flops_per_gpu),
        "scaling_efficiency": tokens_per_s / n_gpus / tokens_per_s_one_gpu,
    }


def _mistakes(key, args):
    """(value, explanation) pairs for the answers the usual slips give for one field."""
    n, tps, g, peak, one = args[:5]
    attn = 12 * args[5] * args[6] * args[7] if len(args) > 5 else 0
    want = reference(*args)[key]
    out = []
    if key == "flops_per_token":
        out.append((2 * n + attn / 3, say(
            "this is the forward pass only (2N, and 4·L·T·d for attention); training counts forward + backward = 3× that: 6N + 12·L·T·d",
            "这只是前向（2N，注意力 4·L·T·d）；训练要算前向加反向，是它的 3 倍：6N + 12·L·T·d")))
        if attn:
            out.append((6 * n, say("the attention term 12·n_layers·seq_len·d_model is missing although the layer sizes were given",
                                   "给了层的尺寸，却漏了注意力项 12·n_layers·seq_len·d_model")))
            out.append((6 * n + attn / 2, say(
                "the attention term is halved for the causal mask, as Megatron-LM counts it; this exercise follows PaLM's "
                "Appendix B and counts the full T×T scores: 12·L·T·d",
                "注意力项按 causal mask 减半了（Megatron-LM 的口径）；本题按 PaLM 附录 B 的口径计满 T×T 的 score：12·L·T·d")))
    hfu = say("this is 4/3 of the model FLOPs: it adds the forward pass that activation recomputation repeats "
              "(8N + 16·L·T·d per token), which is HFU; MFU counts 6N + 12·L·T·d",
              "是模型 FLOPs 的 4/3：把激活重算多做的一次前向也算进去了（每 token 8N + 16·L·T·d），那是 HFU；MFU 只算 6N + 12·L·T·d")
    if key == "flops_per_token":
        out.append((8 * n + attn * 4 / 3, hfu))
    if key in ("achieved_flops", "mfu"):
        out.append((want / 3, say("this is a third of the expected value: the FLOPs per token count the forward pass only",
                                        "只有应有值的三分之一：每 token FLOPs 只算了前向")))
        out.append((want * 4 / 3, hfu))
    if key == "achieved_flops":
        out.append((want / g, say(f"this is the FLOP/s of one GPU: tokens_per_s is the throughput of all {g} GPUs together, so achieved_flops is too",
                                  f"这是单卡的 FLOP/s：tokens_per_s 是全部 {g} 张卡合起来的吞吐，achieved_flops 也是全部的")))
        if g > 1:
            out.append((want * g, say(f"this is {g}× too large: tokens_per_s is already the throughput of all {g} GPUs together; "
                                      "multiplying it by n_gpus counts every token once per GPU",
                                      f"大了 {g} 倍：tokens_per_s 已经是全部 {g} 张卡合起来的吞吐，再乘 n_gpus 就把每个 token 按卡数重复算了")))
    if key == "mfu":
        if g > 1:
            out.append((want * g, say(f"this is {g}× too large: tokens_per_s is the throughput of all {g} GPUs, so the peak in the "
                                      "denominator must be theirs too, n_gpus × peak_flops_per_gpu",
                                      f"大了 {g} 倍：tokens_per_s 是全部 {g} 张卡的吞吐，分母的峰值也要是全部卡的：n_gpus × peak_flops_per_gpu")))
        out.append((want * 100, say("this is a percentage; return a fraction between 0 and 1",
                                    "这是百分数；请返回 0 到 1 之间的小数")))
    if key == "scaling_efficiency":
        if g > 1:
            out.append((want * g, say(f"this is the speedup (total throughput over one GPU's); weak-scaling efficiency divides it by n_gpus = {g}: per-GPU throughput over one GPU's",
                                      f"这是加速比（总吞吐 / 单卡吞吐）；弱扩展效率还要除以 n_gpus = {g}：每卡吞吐 / 单卡吞吐")))
        out.append((want * 100, say("this is a percentage; return a fraction (1.0 is perfect scaling)",
                                    "这是百分数；请返回小数（1.0 是完美扩展）")))
        out.append((1 / want, say("this is inverted: one GPU's throughput over the per-GPU throughput at n_gpus",
                                  "分子分母颠倒了：写成了单卡吞吐 / 多卡时的每卡吞吐")))
    return out


def _close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _run(entry, *args):
    got = entry(*args)
    assert isinstance(got, dict), say(f"training_efficiency should return a dict, got {type(got).__name__}",
                                      f"training_efficiency 应返回 dict，实际返回了 {type(got).__name__}")
    missing = [k for k in KEYS if k not in got]
    assert not missing, say(f"the returned dict lacks {missing}", f"返回的 dict 缺少 {missing}")
    for k in KEYS:
        v = got[k]
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        assert ok, say(f"{k} should be a finite number, got {v!r}", f"{k} 应为有限的数，实际是 {v!r}")
    return got


def _describe(args):
    n, tps, g, peak, one = args[:5]
    text_en = f"N={n:.3g}, {tps:g} tokens/s on {g} GPU(s), peak {peak:.3g} FLOP/s per GPU, {one:g} tokens/s on 1 GPU"
    text_zh = f"N={n:.3g}，{g} 张卡共 {tps:g} tokens/s，单卡峰值 {peak:.3g} FLOP/s，单卡时 {one:g} tokens/s"
    if len(args) > 5:
        text_en += f", n_layers={args[5]}, seq_len={args[6]}, d_model={args[7]}"
        text_zh += f"，n_layers={args[5]}，seq_len={args[6]}，d_model={args[7]}"
    return text_en, text_zh


def _expect(entry, keys, *args):
    got = _run(entry, *args)
    want = reference(*args)
    case_en, case_zh = _describe(args)
    for k in keys:
        if _close(float(got[k]), want[k]):
            continue
        why = next((text for value, text in _mistakes(k, args) if _close(float(got[k]), value)), "")
        raise AssertionError(say(f"{case_en}: expected {k} = {want[k]:.6g}, got {got[k]:.6g}. {why}",
                                 f"{case_zh}：{k} 应为 {want[k]:.6g}，实际是 {got[k]:.6g}。{why}").rstrip())


def test_flops_per_token_is_6n(entry):
    # 7e9 parameters: 6 * 7e9 = 4.2e10 FLOPs per trained token
    _expect(entry, ["flops_per_token"], 7e9, 24000.0, 8, A100_BF16, 3200.0)
    _expect(entry, ["flops_per_token"], 1.3e8, 5.0e5, 1, A100_BF16, 5.0e5)


def test_attention_term(entry):
    # 12 * 32 * 4096 * 4096 = 6.44e9 on top of 6 * 7e9 = 4.2e10
    _expect(entry, ["flops_per_token"], 7e9, 24000.0, 8, A100_BF16, 3200.0, 32, 4096, 4096)
    _expect(entry, ["flops_per_token"], 1.24e8, 1.0e5, 4, 125e12, 3.0e4, 12, 1024, 768)


def test_achieved_flops_of_all_gpus(entry):
    # 24000 tokens/s * 4.2e10 = 1.008e15 FLOP/s for the whole job
    _expect(entry, ["flops_per_token", "achieved_flops"], 7e9, 24000.0, 8, A100_BF16, 3200.0)


def test_mfu_one_gpu(entry):
    # 1000 tokens/s * 6 * 1.3e10 = 7.8e13 FLOP/s against 312e12: MFU 0.25
    _expect(entry, ["mfu"], 1.3e10, 1000.0, 1, A100_BF16, 1000.0)


def test_mfu_many_gpus(entry):
    # 1.008e15 / (8 * 312e12) = 0.4038...
    _expect(entry, ["flops_per_token", "mfu"], 7e9, 24000.0, 8, A100_BF16, 3200.0)
    # with the attention term: 24000 * 4.844e10 / 2.496e15 = 0.4658
    _expect(entry, ["flops_per_token", "mfu"], 7e9, 24000.0, 8, A100_BF16, 3200.0, 32, 4096, 4096)
    # 512 H100-class GPUs at 989e12: 70e9 * 6 * 400000 / (512 * 989e12) = 0.3318
    _expect(entry, ["mfu"], 70e9, 400000.0, 512, 989e12, 900.0)


def test_weak_scaling_efficiency(entry):
    # 24000 / 8 = 3000 tokens/s per GPU against 3200 on one GPU: 0.9375
    _expect(entry, ["scaling_efficiency"], 7e9, 24000.0, 8, A100_BF16, 3200.0)
    # perfect scaling is 1.0
    _expect(entry, ["scaling_efficiency"], 7e9, 25600.0, 8, A100_BF16, 3200.0)
    # 400000 / 512 = 781.25 per GPU against 900: 0.868
    _expect(entry, ["scaling_efficiency"], 70e9, 400000.0, 512, 989e12, 900.0)
    _expect(entry, ["scaling_efficiency"], 1.3e10, 1000.0, 1, A100_BF16, 1250.0)


def test_all_fields_together(entry):
    _expect(entry, list(KEYS), 1.24e8, 1.0e5, 4, 125e12, 3.0e4, 12, 1024, 768)


def test_rejects_impossible_inputs(entry):
    bad = (
        ((7e9, 24000.0, 0, A100_BF16, 3200.0), "n_gpus = 0"),
        ((7e9, 24000.0, 8, 0.0, 3200.0), "peak_flops_per_gpu = 0"),
        ((7e9, 24000.0, 8, A100_BF16, 0.0), "tokens_per_s_one_gpu = 0"),
        ((0.0, 24000.0, 8, A100_BF16, 3200.0), "n_params = 0"),
        ((7e9, -1.0, 8, A100_BF16, 3200.0), "tokens_per_s = -1"),
    )
    for args, what in bad:
        try:
            entry(*args)
        except ValueError:
            continue
        except Exception as exc:  # noqa: BLE001 - the message names what was raised instead
            raise AssertionError(say(f"{what}: expected ValueError, got {type(exc).__name__}",
                                     f"{what}：应抛出 ValueError，实际抛出了 {type(exc).__name__}")) from None
        raise AssertionError(say(f"{what}: expected ValueError, but the call returned normally",
                                 f"{what}：应抛出 ValueError，调用却正常返回了"))
