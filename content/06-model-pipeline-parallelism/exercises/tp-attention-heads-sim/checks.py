"""Full multi-head attention from PyTorch's SDPA, and the tests: output, per-rank partials, uneven splits."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say


def full_mha(x, wq, wk, wv, wo, n_heads):
    b, s, d = x.shape
    hd = d // n_heads

    def split(t):
        return t.reshape(b, s, n_heads, hd).transpose(1, 2)

    ctx = F.scaled_dot_product_attention(split(x @ wq), split(x @ wk), split(x @ wv))  # scale 1/sqrt(hd)
    return ctx.transpose(1, 2).reshape(b, s, d) @ wo


def make(b, s, d, seed):
    gen = torch.Generator().manual_seed(seed)
    x = torch.rand(b, s, d, generator=gen, dtype=torch.float64) * 2 - 1
    ws = [(torch.rand(d, d, generator=gen, dtype=torch.float64) * 2 - 1) / d**0.5 * 2 for _ in range(4)]
    return [x, *ws]


def _call(entry, ts, n_heads, tp):
    res = entry(*ts, n_heads, tp)
    assert isinstance(res, (tuple, list)) and len(res) == 2, say("tp_attention should return a pair (out, partials)",
                                                                                 "tp_attention 应返回二元组 (out, partials)")
    out, partials = res
    assert isinstance(partials, (list, tuple)) and len(partials) == tp, say(
        f"partials should hold tp={tp} tensors, one per rank; got "
        + (str(len(partials)) if isinstance(partials, (list, tuple)) else type(partials).__name__),
        f"partials 应包含 tp={tp} 个 tensor，每个 rank 一个；实际是 "
        + (f"{len(partials)} 个" if isinstance(partials, (list, tuple)) else type(partials).__name__),
    )
    return out, list(partials)


def test_output_matches_full_attention(entry):
    for n_heads, tp, (b, s, d) in ((4, 2, (2, 5, 16)), (8, 4, (1, 6, 32)), (4, 4, (2, 3, 8)), (2, 1, (1, 4, 8))):
        ts = make(b, s, d, seed=n_heads * 10 + tp)
        out, _ = _call(entry, ts, n_heads, tp)
        want = full_mha(*ts, n_heads)
        assert tuple(out.shape) == tuple(want.shape), say(
            f"H={n_heads}, tp={tp}: out has shape {tuple(out.shape)}, expected {tuple(want.shape)}",
            f"H={n_heads}，tp={tp}：out 的形状是 {tuple(out.shape)}，应为 {tuple(want.shape)}")
        if not torch.allclose(out, want, atol=1e-10, rtol=1e-8):
            diff = (out - want).abs()
            i = int(diff.argmax())
            assert False, say(
                f"H={n_heads}, tp={tp}, (B, S, D)={(b, s, d)}: out differs from full multi-head attention by up to "
                f"{float(diff.max()):.3g} (flat index {i}: expected {float(want.reshape(-1)[i]):.6g}, got "
                f"{float(out.reshape(-1)[i]):.6g}); check the scale 1/sqrt(head_dim), softmax over the key axis, "
                "and that the per-rank results are summed",
                f"H={n_heads}，tp={tp}，(B, S, D)={(b, s, d)}：out 与完整 multi-head attention 最多相差 "
                f"{float(diff.max()):.3g}（展平后的索引 {i}：应为 {float(want.reshape(-1)[i]):.6g}，实际是 "
                f"{float(out.reshape(-1)[i]):.6g}）；检查缩放因子 1/sqrt(head_dim)、softmax 是否沿 key 维，"
                "以及各 rank 的结果是否做了求和",
            )


def test_partials_are_contiguous_head_blocks(entry):
    n_heads, tp, (b, s, d) = 8, 4, (1, 4, 16)
    ts = make(b, s, d, seed=3)
    x, wq, wk, wv, wo = ts
    _, partials = _call(entry, ts, n_heads, tp)
    hd, local = d // n_heads, n_heads // tp
    for r, part in enumerate(partials):
        # zero every column (of wq, wk, wv) and row (of wo) outside rank r's heads, then run full attention
        keep = torch.zeros(d, dtype=torch.float64)
        keep[r * local * hd:(r + 1) * local * hd] = 1
        masked = full_mha(x, wq * keep, wk * keep, wv * keep, wo * keep[:, None], n_heads)
        # heads whose q, k, v are all zero give uniform attention over zero values: they contribute nothing
        assert tuple(part.shape) == (b, s, d), say(f"rank {r}'s partial has shape {tuple(part.shape)}, expected {(b, s, d)}",
                                                   f"rank {r} 的 partial 形状是 {tuple(part.shape)}，应为 {(b, s, d)}")
        if not torch.allclose(part, masked, atol=1e-10, rtol=1e-8):
            assert False, say(
                f"rank {r}'s partial (H={n_heads}, tp={tp}) should be the output projection of heads "
                f"{r * local}..{(r + 1) * local - 1} only (columns {r * local * hd}:{(r + 1) * local * hd} of wq, wk, wv and "
                f"the same rows of wo), but differs by up to {float((part - masked).abs().max()):.3g}; "
                "rank r owns a contiguous block of H/tp heads",
                f"rank {r} 的 partial（H={n_heads}，tp={tp}）应只是 head {r * local}..{(r + 1) * local - 1} 的输出投影"
                f"（wq、wk、wv 的第 {r * local * hd}:{(r + 1) * local * hd} 列，以及 wo 的相同行），"
                f"但最多相差 {float((part - masked).abs().max()):.3g}；rank r 负责连续的一段 H/tp 个 head",
            )


def test_uneven_split_is_rejected(entry):
    ts = make(1, 2, 12, seed=4)
    try:
        entry(*ts, 6, 4)
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001
        assert False, say(
            f"n_heads=6, tp=4 should raise ValueError (6 heads cannot be split evenly over 4 ranks), got {type(exc).__name__}: {exc}",
            f"n_heads=6，tp=4 应抛出 ValueError（6 个 head 无法均分到 4 个 rank），实际抛出了 {type(exc).__name__}: {exc}")
    assert False, say(
        "n_heads=6, tp=4 should raise ValueError: 6 heads cannot be split evenly over 4 ranks, and floor division would silently drop heads",
        "n_heads=6，tp=4 应抛出 ValueError：6 个 head 无法均分到 4 个 rank，用整除会悄悄丢掉一些 head")
