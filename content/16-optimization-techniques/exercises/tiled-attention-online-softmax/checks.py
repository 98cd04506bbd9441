"""SDPA as the reference for tiled attention, the running max and sum after each key block, and the usual slips."""

import math

import torch
import torch.nn.functional as F

from quiz.grader.say import say

_sdpa = F.scaled_dot_product_attention  # taken when the checks load, before any learner code runs
_Generator = torch.Generator
_rand = torch.rand
_exp = torch.exp
_matmul = torch.matmul
_allclose = torch.allclose
_logsumexp = torch.logsumexp


def make(b, h, L, S, e, ev, seed, spread=1.0):
    gen = _Generator().manual_seed(seed)
    q = (_rand(b, h, L, e, generator=gen, dtype=torch.float64) * 2 - 1) * spread
    k = (_rand(b, h, S, e, generator=gen, dtype=torch.float64) * 2 - 1) * spread
    v = _rand(b, h, S, ev, generator=gen, dtype=torch.float64) * 2 - 1
    return q, k, v


def tiled(q, k, v, bs, scaled=True, rescale_acc=True, divide_each_block=False, skip_partial=False, rescale_l=True):
    """A tiled forward with switches for the usual mistakes (all off: the correct algorithm)."""
    scale = 1 / math.sqrt(q.shape[-1]) if scaled else 1.0
    S = k.shape[-2]
    m = q.new_full(q.shape[:-1], float("-inf"))
    ll = q.new_zeros(q.shape[:-1])
    acc = q.new_zeros(*q.shape[:-1], v.shape[-1])
    stop = S // bs * bs if skip_partial else S
    for start in range(0, stop, bs):
        s = _matmul(q, k[..., start:start + bs, :].transpose(-1, -2)) * scale
        m_new = torch.maximum(m, s.amax(-1))
        alpha = _exp(m - m_new)
        p = _exp(s - m_new[..., None])
        ll = (ll * alpha if rescale_l else ll) + p.sum(-1)
        acc = (acc * alpha[..., None] if rescale_acc else acc) + _matmul(p, v[..., start:start + bs, :])
        if divide_each_block:
            acc = acc / ll[..., None]
        m = m_new
    return acc if divide_each_block else acc / ll[..., None]


MISTAKES = {
    "unscaled": ({"scaled": False}, "the scores were not multiplied by 1/sqrt(E)",
                 "分数没有乘以 1/sqrt(E)"),
    "no_rescale": ({"rescale_acc": False}, "the output accumulator was not multiplied by exp(m_old - m_new) when the "
                   "running max grew, so earlier blocks keep weights relative to an old max",
                   "running max 变大时没有把输出累加器乘以 exp(m_old - m_new)，之前的块仍按旧的 max 计权"),
    "no_rescale_l": ({"rescale_l": False}, "the running sum l was not multiplied by exp(m_old - m_new) when the "
                     "running max grew, so its earlier terms stay relative to an old max",
                     "running max 变大时没有把 running sum l 乘以 exp(m_old - m_new)，它之前的项仍以旧的 max 为基准"),
    "divide_each_block": ({"divide_each_block": True}, "the accumulator was divided by the running sum inside the loop, "
                          "after every block, so earlier blocks are divided more than once; divide once at the end",
                          "在循环里每个块之后都把累加器除以 running sum，前面的块被除了不止一次；应在最后除一次"),
    "skip_partial": ({"skip_partial": True}, "the last, partial key block was skipped (range(S // block_size) blocks)",
                     "跳过了最后那个不满的 key 块（只循环了 S // block_size 个块）"),
}


def _named_mistake(q, k, v, bs, got):
    for kw, en, zh in MISTAKES.values():
        try:
            wrong = tiled(q, k, v, bs, **kw)
        except Exception:  # noqa: BLE001 - a variant that cannot run on these shapes names nothing
            continue
        if _allclose(got, wrong, atol=1e-9, rtol=1e-7):
            return say(f" This looks like a slip: {en}.", f"看起来是这个错误：{zh}。")
    return ""


def _call(entry, q, k, v, bs, on_block=None):
    out = entry(q, k, v, bs) if on_block is None else entry(q, k, v, bs, on_block)
    want_shape = (*q.shape[:-1], v.shape[-1])
    assert isinstance(out, torch.Tensor), say(f"tiled_attention should return a tensor, got {type(out).__name__}",
                                              f"tiled_attention 应返回 tensor，实际是 {type(out).__name__}")
    assert tuple(out.shape) == want_shape and out.dtype == torch.float64, say(
        f"the output should be float64 of shape (B, H, L, Ev) = {want_shape}, got {out.dtype} {tuple(out.shape)}",
        f"输出应为 float64、形状 (B, H, L, Ev) = {want_shape}，实际是 {out.dtype} {tuple(out.shape)}")
    return out


def _compare(entry, shape, bs, seed, spread=1.0):
    b, h, L, S, e, ev = shape
    q, k, v = make(b, h, L, S, e, ev, seed, spread)
    got = _call(entry, q, k, v, bs)
    want = _sdpa(q, k, v)
    where = say(f"(B, H, L, S, E, Ev) = {shape}, block_size {bs}", f"(B, H, L, S, E, Ev) = {shape}，block_size {bs}")
    top = float(_matmul(q, k.transpose(-1, -2)).abs().max()) / math.sqrt(e)
    if not bool(torch.isfinite(got).all()):
        if top > 700:
            raise AssertionError(say(
                f"{where}: the output holds inf or nan. Scores reach about {top:.0f}, and exp overflows float64 past "
                "709 unless the running max is subtracted before exponentiating",
                f"{where}：输出里有 inf 或 nan。分数最大约 {top:.0f}，超过 709 时 float64 的 exp 会溢出，"
                "必须先减去 running max 再取 exp"))
        raise AssertionError(say(
            f"{where}: the output holds inf or nan although the scores are small (at most {top:.2g}): was any key "
            "block processed? With block_size > S there is one block holding all S keys, and acc / l is 0 / 0 when "
            "l was never added to",
            f"{where}：分数都很小（最大 {top:.2g}），输出里却有 inf 或 nan：是否有 key 块根本没处理？"
            "block_size > S 时只有一块，包含全部 S 个 key；l 从未累加时 acc / l 就是 0 / 0"))
    if not _allclose(got, want, atol=1e-10, rtol=1e-8):
        err = (got - want).abs().amax(dim=-1)
        bad = err.flatten().gt(1e-10).sum().item()
        raise AssertionError(say(
            f"{where}: {bad} of {err.numel()} query rows differ from scaled_dot_product_attention (largest error "
            f"{float(err.max()):.3g}).{_named_mistake(q, k, v, bs, got)}",
            f"{where}：{err.numel()} 个 query 行中有 {bad} 行与 scaled_dot_product_attention 不一致（最大误差 "
            f"{float(err.max()):.3g}）。{_named_mistake(q, k, v, bs, got)}"))


def test_matches_sdpa_with_partial_last_block(entry):
    _compare(entry, (1, 2, 7, 10, 4, 3), 4, seed=1)
    _compare(entry, (2, 1, 5, 9, 8, 8), 3, seed=2)
    _compare(entry, (1, 3, 6, 13, 16, 5), 5, seed=3)


def test_block_sizes_one_and_larger_than_s(entry):
    _compare(entry, (1, 2, 4, 6, 4, 4), 1, seed=4)
    _compare(entry, (1, 2, 4, 6, 4, 4), 64, seed=5)


def test_large_scores_do_not_overflow(entry):
    # q and k of size about 40 in 4 dimensions: scaled scores pass 709, so exp overflows without the max
    _compare(entry, (1, 2, 5, 11, 4, 3), 4, seed=6, spread=40.0)


class Stats:
    """Collects on_block(end, m, l) calls."""

    def __init__(self):
        self.calls = []

    def __call__(self, end, m, l):  # noqa: E741 - the algorithm's name for the running sum
        self.calls.append((end, m.clone() if isinstance(m, torch.Tensor) else m,
                           l.clone() if isinstance(l, torch.Tensor) else l))


def test_running_max_and_sum_after_each_block(entry):
    b, h, L, S, e, ev, bs = 1, 2, 5, 11, 4, 3, 4
    q, k, v = make(b, h, L, S, e, ev, seed=7, spread=2.0)
    stats = Stats()
    _call(entry, q, k, v, bs, stats)
    ends = [c[0] for c in stats.calls]
    want_ends = [4, 8, 11]
    if ends != want_ends:
        extra = ""
        if ends == [4, 8, 12]:
            extra = say(" The last block holds only keys 8..10, so end is min(j + block_size, S) = 11.",
                        "最后一块只有 key 8..10，所以 end 是 min(j + block_size, S) = 11。")
        if ends == [4, 8]:
            extra = say(" The last, partial block (keys 8..10) was never processed: loop over range(0, S, block_size).",
                        "最后那个不满的块（key 8..10）没有处理：循环应是 range(0, S, block_size)。")
        raise AssertionError(say(
            f"S = {S}, block_size = {bs}: on_block should be called after each key block with the number of keys "
            f"seen so far, {want_ends}; got {ends}.{extra}",
            f"S = {S}，block_size = {bs}：每处理完一个 key 块应调用一次 on_block，参数是已处理的 key 数，"
            f"应为 {want_ends}，实际是 {ends}。{extra}"))
    scores = _matmul(q, k.transpose(-1, -2)) / math.sqrt(e)
    for end, m, ll in stats.calls:
        assert isinstance(m, torch.Tensor) and isinstance(ll, torch.Tensor) and tuple(m.shape) == (b, h, L) \
            and tuple(ll.shape) == (b, h, L), say(
                f"after {end} keys: m and l should be tensors of shape (B, H, L) = {(b, h, L)}",
                f"处理完 {end} 个 key 后：m 和 l 应是形状为 (B, H, L) = {(b, h, L)} 的 tensor")
        seen = scores[..., :end]
        want_m = seen.amax(-1)
        if not _allclose(m.to(torch.float64), want_m, atol=1e-10, rtol=1e-9):
            note = ""
            if not bool(m.ne(0).any()):
                note = say(" m stayed 0: without a running max, exp is taken of the raw scores and overflows once they "
                           "pass 709.", "m 一直是 0：没有 running max，exp 直接作用在原始分数上，分数超过 709 就溢出。")
            elif _allclose(m.to(torch.float64), want_m * math.sqrt(e), atol=1e-9, rtol=1e-8):
                note = say(" It is the max of unscaled QK^T: multiply the scores by 1/sqrt(E) first.",
                           "这是未缩放的 QK^T 的最大值：先把分数乘以 1/sqrt(E)。")
            elif _allclose(m.to(torch.float64), scores[..., (end - 1) // bs * bs:end].amax(-1), atol=1e-10, rtol=1e-9):
                note = say(" It is the max of this block alone: keep the max of the old running max and the block's max.",
                           "这只是当前块的最大值：应取旧的 running max 与当前块最大值中较大的一个。")
            raise AssertionError(say(
                f"after {end} keys: m should be the max of the scaled scores over keys 0..{end - 1}, row by row; "
                f"differs by up to {float((m.to(torch.float64) - want_m).abs().max()):.3g}.{note}",
                f"处理完 {end} 个 key 后：m 应是 key 0..{end - 1} 上缩放后分数的逐行最大值；最多相差 "
                f"{float((m.to(torch.float64) - want_m).abs().max()):.3g}。{note}"))
        want_l = _exp(seen - want_m[..., None]).sum(-1)
        if not _allclose(ll.to(torch.float64), want_l, atol=1e-10, rtol=1e-9):
            start = (end - 1) // bs * bs
            block_only = _exp(scores[..., start:end] - want_m[..., None]).sum(-1)
            note = ""
            not_rescaled = scores.new_zeros(want_m.shape)
            for j in range(0, end, bs):
                not_rescaled = not_rescaled + _exp(scores[..., j:min(j + bs, end)]
                                                   - scores[..., :min(j + bs, end)].amax(-1)[..., None]).sum(-1)
            if _allclose(ll.to(torch.float64), block_only, atol=1e-10, rtol=1e-9):
                note = say(" It holds only this block's terms: carry l over as l * exp(m_old - m_new) + this block's sum.",
                           "它只包含当前块的项：应延续 l，即 l * exp(m_old - m_new) 再加上当前块的和。")
            elif _allclose(ll.to(torch.float64), not_rescaled, atol=1e-10, rtol=1e-9):
                note = say(" Each block's sum was added against the max of its own time, but the old l was never "
                           "multiplied by exp(m_old - m_new) when the max grew.",
                           "每块的和是按当时的 max 加进去的，但 max 变大时旧的 l 没有乘以 exp(m_old - m_new)。")
            raise AssertionError(say(
                f"after {end} keys: l should be sum over keys 0..{end - 1} of exp(score - m), with m the current "
                f"running max; differs by up to {float((ll.to(torch.float64) - want_l).abs().max()):.3g}.{note}",
                f"处理完 {end} 个 key 后：l 应是 key 0..{end - 1} 上 exp(score - m) 之和，m 为当前的 running max；"
                f"最多相差 {float((ll.to(torch.float64) - want_l).abs().max()):.3g}。{note}"))


PRODUCTS = {"matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "baddbmm", "addmm", "einsum", "tensordot", "linear",
            "scaled_dot_product_attention", "softmax", "_softmax", "log_softmax", "logsumexp"}


class Watch(torch.Tensor):
    """A tensor subclass that notes the operand shapes of every product or softmax it takes part in."""

    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in PRODUCTS:
            cls.calls.append((name, [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]))
        return super().__torch_function__(func, types, args, kwargs or {})


def test_never_builds_the_full_score_matrix(entry):
    b, h, L, S, e, ev, bs = 1, 2, 5, 11, 4, 3, 4  # S = 11 is no other size here, so any operand with an 11 saw every key
    q, k, v = make(b, h, L, S, e, ev, seed=8)
    Watch.calls = []
    out = entry(q.as_subclass(Watch), k.as_subclass(Watch), v.as_subclass(Watch), bs)
    whole = [(name, shapes) for name, shapes in Watch.calls if any(S in s[-2:] for s in shapes)]
    assert not whole, say(
        f"S = {S}, block_size = {bs}: {whole[0][0]} got operands of shapes {whole[0][1]}, which span all {S} keys; "
        "a tiled forward only ever multiplies one block of at most block_size keys at a time",
        f"S = {S}，block_size = {bs}：{whole[0][0]} 收到的操作数形状是 {whole[0][1]}，覆盖了全部 {S} 个 key；"
        "分块前向每次只乘一个至多 block_size 个 key 的块")
    assert isinstance(out, torch.Tensor) and _allclose(out.as_subclass(torch.Tensor), _sdpa(q, k, v), atol=1e-10,
                                                       rtol=1e-8), say(
        f"S = {S}, block_size = {bs}: the output differs from scaled_dot_product_attention",
        f"S = {S}，block_size = {bs}：输出与 scaled_dot_product_attention 不一致")


def observe():
    """What Watch saw during one call of the learner's code (sent to the judge with the call's record)."""
    return [(name, [list(s) for s in shapes]) for name, shapes in Watch.calls]


def restore(observed):
    """On the judge's side: Watch as the learner's call left it."""
    Watch.calls = [(str(name), [tuple(int(d) for d in s) for s in shapes]) for name, shapes in observed]
