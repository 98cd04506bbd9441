"""Per-sequence scaled_dot_product_attention as the reference for packed (varlen) attention, and the usual mask mistakes."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say

_sdpa = F.scaled_dot_product_attention  # taken when the checks load, before any learner code runs
_Generator = torch.Generator
_rand = torch.rand
_cat = torch.cat
_tensor = torch.tensor


def seqs(lengths, heads=2, dim=4, seed=0):
    gen = _Generator().manual_seed(seed)
    return [_rand(n, heads, dim, generator=gen, dtype=torch.float64) * 2 - 1 for n in lengths]


def cu(lengths):
    out = [0]
    for n in lengths:
        out.append(out[-1] + n)
    return _tensor(out, dtype=torch.int32)


def per_sequence(qs, ks, vs, causal):
    """The reference: each sequence on its own, no mask at all, through torch's SDPA."""
    outs = [_sdpa(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), is_causal=causal).transpose(0, 1)
            for q, k, v in zip(qs, ks, vs)]
    return _cat(outs)


def _masked(q, k, v, mask):
    return _sdpa(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), attn_mask=mask).transpose(0, 1)


def wrong_masks(lengths, causal):
    """Masks a candidate often builds by mistake, by name."""
    total = sum(lengths)
    pos = torch.arange(total)
    seg = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))
    left = torch.searchsorted(cu(lengths).to(torch.int64), pos) - 1  # side='left': a start offset goes to the sequence before
    tril = pos[None, :] <= pos[:, None]
    masks = {
        "no_block": torch.ones(total, total, dtype=torch.bool) & (tril if causal else True),
        "boundary": (left[:, None] == left[None, :]) & (tril if causal else True),
    }
    if causal:
        masks["future"] = (seg[:, None] == seg[None, :]) & (pos[None, :] >= pos[:, None])
    else:
        masks["causal_always"] = (seg[:, None] == seg[None, :]) & tril
    return masks


MISTAKES = {
    "no_block": ("attention over the whole pack: tokens see the other sequences. The mask must be block-diagonal: "
                 "query i may attend to key j only when both lie in the same [cu_seqlens[s], cu_seqlens[s+1]) range",
                 "在整个 pack 上做了 attention：token 看到了其它序列。mask 必须是块对角的：只有 query i 和 key j "
                 "落在同一个 [cu_seqlens[s], cu_seqlens[s+1]) 区间里时才能相互关注"),
    "boundary": ("the first token of each sequence counted in the sequence before it (a start offset belongs to the "
                 "sequence that starts there: searchsorted needs right=True, or compare pos >= start and pos < end)",
                 "每个序列的第一个 token 被算进了前一个序列（起始偏移属于从那里开始的序列：searchsorted 要用 right=True，"
                 "或者写成 pos >= start 且 pos < end）"),
    "future": ("a causal mask that points the wrong way: each query saw the keys after it instead of before it",
               "causal mask 方向反了：每个 query 看到的是它之后的 key，而不是之前的"),
    "causal_always": ("a causal mask applied although causal=False", "causal=False 时也加了 causal mask"),
}


def _call_pack(entry, xs):
    got = entry.pack(xs)
    assert isinstance(got, (tuple, list)) and len(got) == 3, say(
        "Varlen.pack should return a triple (packed, cu_seqlens, max_seqlen)",
        "Varlen.pack 应返回三元组 (packed, cu_seqlens, max_seqlen)")
    return got


def _call_attention(entry, q, k, v, cu_seqlens, causal):
    out = entry.attention(q, k, v, cu_seqlens, causal=causal)
    assert isinstance(out, torch.Tensor), say(f"Varlen.attention should return a tensor, got {type(out).__name__}",
                                              f"Varlen.attention 应返回 tensor，实际是 {type(out).__name__}")
    assert tuple(out.shape) == tuple(q.shape), say(
        f"Varlen.attention should return the shape of q, (total, H, D) = {tuple(q.shape)}, got {tuple(out.shape)}",
        f"Varlen.attention 应返回与 q 相同的形状 (total, H, D) = {tuple(q.shape)}，实际是 {tuple(out.shape)}")
    return out


def _where(lengths, rows):
    starts = cu(lengths).tolist()
    out = []
    for r in rows:
        s = max(i for i in range(len(lengths)) if starts[i] <= r)
        out.append(say(f"{r} (sequence {s}, position {r - starts[s]})", f"{r}（序列 {s} 的位置 {r - starts[s]}）"))
    return ", ".join(out)


def _compare(lengths, causal, q, k, v, got):
    qs, ks, vs = (list(t.split(lengths)) for t in (q, k, v))
    want = per_sequence(qs, ks, vs, causal)
    err = (got.to(torch.float64) - want).abs().amax(dim=(1, 2))
    bad = (err > 1e-9).nonzero().flatten().tolist()
    if not bad:
        return
    hint = ""
    for name, mask in wrong_masks(lengths, causal).items():
        if torch.allclose(got.to(torch.float64), _masked(q, k, v, mask), atol=1e-9, rtol=0):
            en, zh = MISTAKES[name]
            hint = say(f" This looks like {en}.", f"看起来是这个错误：{zh}。")
            break
    raise AssertionError(say(
        f"lengths {lengths}, causal={causal}: {len(bad)} of {got.shape[0]} packed tokens are wrong, the first at "
        f"{_where(lengths, bad[:3])}.{hint} Compared with scaled_dot_product_attention on each sequence alone "
        f"(largest error {err.max().item():.3g}).",
        f"长度 {lengths}，causal={causal}：pack 中 {got.shape[0]} 个 token 有 {len(bad)} 个不对，前几个是 "
        f"{_where(lengths, bad[:3])}。{hint}比较对象是对每条序列单独运行的 scaled_dot_product_attention"
        f"（最大误差 {err.max().item():.3g}）。",
    ))


def test_pack_builds_cu_seqlens(entry):
    lengths = [3, 5, 2]
    xs = seqs(lengths, seed=1)
    packed, cu_seqlens, max_seqlen = _call_pack(entry, xs)
    assert isinstance(cu_seqlens, torch.Tensor), say(f"cu_seqlens should be a tensor, got {type(cu_seqlens).__name__}",
                                                     f"cu_seqlens 应是 tensor，实际是 {type(cu_seqlens).__name__}")
    got = cu_seqlens.tolist()
    assert got == [0, 3, 8, 10], say(
        f"lengths {lengths}: cu_seqlens should be [0, 3, 8, 10] (batch + 1 entries: each sequence's start offset, "
        f"then the total), got {got}",
        f"长度 {lengths}：cu_seqlens 应为 [0, 3, 8, 10]（batch + 1 个元素：每个序列的起始偏移，最后是总长度），实际是 {got}")
    assert cu_seqlens.dtype == torch.int32, say(
        f"cu_seqlens should be int32, as FlashAttention's varlen functions require; got {cu_seqlens.dtype}",
        f"cu_seqlens 应为 int32，FlashAttention 的 varlen 接口要求如此；实际是 {cu_seqlens.dtype}")
    assert isinstance(max_seqlen, int) and not isinstance(max_seqlen, bool) and max_seqlen == 5, say(
        f"max_seqlen should be the int 5 (the longest sequence), got {max_seqlen!r}",
        f"max_seqlen 应为整数 5（最长序列的长度），实际是 {max_seqlen!r}")
    assert isinstance(packed, torch.Tensor) and tuple(packed.shape) == (10, 2, 4), say(
        f"packed should have shape (10, 2, 4) (the sequences concatenated along the token axis, no padding), got "
        f"{tuple(packed.shape) if isinstance(packed, torch.Tensor) else type(packed).__name__}",
        f"packed 的形状应为 (10, 2, 4)（沿 token 维拼接，没有 padding），实际是 "
        f"{tuple(packed.shape) if isinstance(packed, torch.Tensor) else type(packed).__name__}")
    assert torch.equal(packed, _cat(xs)), say("packed should hold the sequences back to back, in order",
                                              "packed 应按顺序首尾相接地存放各序列")


def _attend(entry, lengths, causal, seed):
    q, k, v = (_cat(seqs(lengths, seed=seed + i)) for i in range(3))
    got = _call_attention(entry, q, k, v, cu(lengths), causal)
    _compare(lengths, causal, q, k, v, got)


def test_matches_per_sequence_sdpa(entry):
    _attend(entry, [3, 5, 1, 7], False, 10)


def test_causal_within_each_sequence(entry):
    _attend(entry, [4, 6, 2], True, 20)


def test_single_sequence_is_plain_attention(entry):
    _attend(entry, [9], False, 30)
    _attend(entry, [9], True, 40)


def test_pack_then_attend(entry):
    lengths = [2, 7, 3, 3]
    qs, ks, vs = (seqs(lengths, seed=50 + i) for i in range(3))
    q, cu_seqlens, _ = _call_pack(entry, qs)
    k, _, _ = _call_pack(entry, ks)
    v, _, _ = _call_pack(entry, vs)
    assert isinstance(cu_seqlens, torch.Tensor) and cu_seqlens.tolist() == cu(lengths).tolist(), say(
        f"lengths {lengths}: pack's cu_seqlens should be {cu(lengths).tolist()}",
        f"长度 {lengths}：pack 返回的 cu_seqlens 应为 {cu(lengths).tolist()}")
    got = _call_attention(entry, q, k, v, cu_seqlens, True)
    _compare(lengths, True, _cat(qs), _cat(ks), _cat(vs), got)
