"""Full attention under a band mask (torch's SDPA) as the reference for banded-block sliding-window attention."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say

_sdpa = F.scaled_dot_product_attention  # taken when the checks load, before any learner code runs
_Generator = torch.Generator
_rand = torch.rand
_arange = torch.arange
_allclose = torch.allclose


def make(b, h, n, e, ev, seed):
    gen = _Generator().manual_seed(seed)
    q = _rand(b, h, n, e, generator=gen, dtype=torch.float64) * 4 - 2
    k = _rand(b, h, n, e, generator=gen, dtype=torch.float64) * 4 - 2
    v = _rand(b, h, n, ev, generator=gen, dtype=torch.float64) * 2 - 1
    return q, k, v


def band(n, window, bs=1, kind="right"):
    """Which keys each query may see: the correct band, or one of the usual wrong ones."""
    i, j = _arange(n)[:, None], _arange(n)[None, :]
    if kind == "right":
        return (j <= i) & (j >= i - window)
    if kind == "narrow":
        return (j <= i) & (j > i - window)
    if kind == "wide":
        return (j <= i) & (j >= i - window - 1)
    if kind == "two_sided":
        return (j - i).abs() <= window
    if kind == "skip_edge_block":
        first = ((i // bs * bs - window).clamp(min=0) + bs - 1) // bs * bs  # rounded up: the straddling block is lost
        return (j <= i) & (j >= i - window) & (j >= first)
    raise ValueError(kind)


def reference(q, k, v, window, bs=1, kind="right"):
    return _sdpa(q, k, v, attn_mask=band(q.shape[-2], window, bs, kind))


MISTAKES = {
    "narrow": ("a window one key short: query i sees keys i - window .. i inclusive, window + 1 keys in all",
               "窗口少了一个 key：query i 看到的是 key i - window .. i（含两端），共 window + 1 个"),
    "wide": ("a window one key too wide: query i sees keys i - window .. i, not from i - window - 1",
             "窗口多了一个 key：query i 看到的是 key i - window .. i，而不是从 i - window - 1 开始"),
    "two_sided": ("a two-sided band |i - j| <= window: the window is causal, no key after the query",
                  "双向的带 |i - j| <= window：滑动窗口是因果的，不能看 query 之后的 key"),
    "skip_edge_block": ("the key block that straddles the lower edge of the band was skipped (the first key block "
                        "rounded up instead of down): take floor(max(0, first_row - window) / block_size)",
                        "跳过了跨在带下边缘上的那个 key 块（第一个 key 块向上取整了）：应取 "
                        "floor(max(0, 首行 - window) / block_size)"),
}


def _hint(q, k, v, window, bs, got):
    for kind, (en, zh) in MISTAKES.items():
        if _allclose(got, reference(q, k, v, window, bs, kind), atol=1e-9, rtol=1e-7):
            return say(f" This looks like {en}.", f"看起来是这个错误：{zh}。")
    if _allclose(got, _sdpa(q, k, v, attn_mask=band(q.shape[-2], window), scale=1.0), atol=1e-9, rtol=1e-7):
        return say(" The scores were not multiplied by 1/sqrt(E).", "分数没有乘以 1/sqrt(E)。")
    return ""


class Blocks:
    """Collects on_block(query_block, key_block) calls."""

    def __init__(self):
        self.seen = []

    def __call__(self, qb, kb):
        self.seen.append((qb, kb))


def _call(entry, q, k, v, window, bs, on_block=None):
    out = entry(q, k, v, window, bs, on_block if on_block is not None else Blocks())
    assert isinstance(out, torch.Tensor) and tuple(out.shape) == (*q.shape[:-1], v.shape[-1]) \
        and out.dtype == torch.float64, say(
            f"sliding_window_attention should return a float64 tensor of shape {(*q.shape[:-1], v.shape[-1])}, got "
            + (f"{out.dtype} {tuple(out.shape)}" if isinstance(out, torch.Tensor) else type(out).__name__),
            f"sliding_window_attention 应返回 float64、形状 {(*q.shape[:-1], v.shape[-1])} 的 tensor，实际是 "
            + (f"{out.dtype} {tuple(out.shape)}" if isinstance(out, torch.Tensor) else type(out).__name__))
    return out


def _compare(entry, shape, window, bs, seed):
    b, h, n, e, ev = shape
    q, k, v = make(b, h, n, e, ev, seed)
    got = _call(entry, q, k, v, window, bs)
    want = reference(q, k, v, window)
    if _allclose(got, want, atol=1e-10, rtol=1e-8):
        return
    rows = (got - want).abs().amax(dim=(0, 1, 3))
    bad = (~(rows <= 1e-10)).nonzero().flatten().tolist()
    raise AssertionError(say(
        f"(B, H, N, E, Ev) = {shape}, window {window}, block_size {bs}: query positions {bad[:8]} differ from full "
        f"attention under the band mask i - window <= j <= i (largest error {float(rows.max()):.3g}).{_hint(q, k, v, window, bs, got)}",
        f"(B, H, N, E, Ev) = {shape}，window {window}，block_size {bs}：query 位置 {bad[:8]} 与带状 mask "
        f"i - window <= j <= i 下的完整 attention 不一致（最大误差 {float(rows.max()):.3g}）。{_hint(q, k, v, window, bs, got)}"))


def test_matches_band_masked_attention(entry):
    _compare(entry, (1, 2, 13, 4, 3), 3, 4, seed=1)
    _compare(entry, (2, 1, 16, 8, 5), 5, 4, seed=2)
    _compare(entry, (1, 2, 11, 4, 4), 6, 3, seed=3)


def test_window_edges(entry):
    _compare(entry, (1, 2, 9, 4, 3), 0, 4, seed=4)  # each query sees itself only
    _compare(entry, (1, 2, 9, 4, 3), 20, 4, seed=5)  # a window past the start: plain causal attention


def expected_blocks(n, window, bs):
    out = []
    for qb in range(-(-n // bs)):
        first, last = qb * bs, min(n, (qb + 1) * bs) - 1
        out += [(qb, kb) for kb in range(max(0, first - window) // bs, last // bs + 1)]
    return out


def test_only_blocks_that_meet_the_band(entry):
    n, window, bs = 22, 5, 4
    q, k, v = make(1, 1, n, 4, 3, seed=6)
    blocks = Blocks()
    _call(entry, q, k, v, window, bs, blocks)
    try:
        seen = [(int(a), int(b)) for a, b in blocks.seen]
    except (TypeError, ValueError):
        raise AssertionError(say("on_block should be called with two ints (query_block, key_block)",
                                 "on_block 的参数应是两个 int (query_block, key_block)")) from None
    want = expected_blocks(n, window, bs)
    assert len(seen) == len(set(seen)), say(
        f"N = {n}, window {window}, block_size {bs}: some (query block, key block) pairs were computed twice",
        f"N = {n}，window {window}，block_size {bs}：有的 (query 块, key 块) 被计算了两次")
    extra, missing = sorted(set(seen) - set(want)), sorted(set(want) - set(seen))
    if not extra and not missing:
        return
    note = ""
    if sorted((kb, qb) for qb, kb in seen) == sorted(want):
        note = say(" These are the right pairs with the arguments swapped: call on_block(query_block, key_block).",
                   "这些块对是对的，只是参数顺序反了：应调用 on_block(query_block, key_block)。")
    elif any(kb > qb for qb, kb in extra):
        note = say(" Key blocks after the query block hold only future keys: a causal band never needs them.",
                   "在 query 块之后的 key 块只有未来的 key：因果的带永远用不到它们。")
    elif extra:
        note = say(" Blocks wholly below the band hold no key any query of the block may see: skipping them is the "
                   "whole saving (about N * window work instead of N^2).",
                   "完全在带下方的块里没有该 query 块能看的 key：跳过它们正是全部的节省（工作量约 N * window，而非 N^2）。")
    elif missing:
        note = say(" A missing block that straddles the band's edge still holds keys some rows may see: compute it "
                   "and mask inside it.", "漏掉的块跨在带的边缘上，里面仍有某些行能看的 key：要算它，并在块内做 mask。")
    raise AssertionError(say(
        f"N = {n}, window {window}, block_size {bs}: the (query block, key block) pairs computed should be exactly "
        f"those that meet the band; extra {extra[:6]}, missing {missing[:6]}.{note}",
        f"N = {n}，window {window}，block_size {bs}：计算的 (query 块, key 块) 应恰好是与带相交的那些；"
        f"多出 {extra[:6]}，缺少 {missing[:6]}。{note}"))


PRODUCTS = {"matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "baddbmm", "addmm", "einsum", "tensordot", "linear",
            "scaled_dot_product_attention"}


def _tensors(args):
    """The tensors among a call's arguments, inside lists and tuples too (torch.einsum(eq, [a, b]))."""
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out += _tensors(a)
    return out


class Watch(torch.Tensor):
    """A tensor subclass that notes the operand shapes of every product it takes part in (and einsum's equation)."""

    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in PRODUCTS:
            eq = next((a for a in args if isinstance(a, str)), "") if name == "einsum" else ""
            cls.calls.append((name, [tuple(a.shape) for a in _tensors(args)], eq))
        return super().__torch_function__(func, types, args, kwargs or {})


def _prod(xs):
    out = 1
    for x in xs:
        out *= int(x)
    return out


def _einsum_work(eq, shapes):
    """Multiply-adds of an einsum: the sizes of all its distinct indices (and the broadcast ellipsis) multiplied."""
    ins = eq.replace(" ", "").split("->")[0].split(",")
    if len(ins) != len(shapes):
        return 0
    sizes, ell = {}, []
    for sub, shape in zip(ins, shapes):
        if "..." in sub:
            head, tail = sub.split("...")
            n_ell = len(shape) - len(head) - len(tail)
            labels = list(head) + [None] * n_ell + list(tail)
            ell_shape = shape[len(head):len(head) + n_ell]
            ell = list(torch.broadcast_shapes(tuple(ell), tuple(ell_shape)))
        else:
            labels = list(sub)
        for lab, d in zip(labels, shape):
            if lab is not None:
                sizes[lab] = max(sizes.get(lab, 1), int(d))
    return _prod(ell) * _prod(sizes.values())


def _work(name, shapes, eq):
    """Multiply-adds of one recorded product (0 where the shapes say too little to tell)."""
    try:
        if name == "einsum":
            return _einsum_work(eq, shapes)
        if name == "linear":
            return _prod(shapes[0]) * shapes[1][0] if len(shapes) >= 2 and len(shapes[1]) == 2 else 0
        if name in ("matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "baddbmm", "addmm") and len(shapes) >= 2:
            a, b = shapes[-2], shapes[-1]
            if name == "__rmatmul__":
                a, b = b, a
            a = (1, *a) if len(a) == 1 else a
            b = (*b, 1) if len(b) == 1 else b
            return _prod(torch.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2]))) * a[-2] * a[-1] * b[-1]
    except (RuntimeError, ValueError, IndexError):
        return 0
    return 0


def test_never_multiplies_the_whole_sequence(entry):
    n, window, bs = 22, 5, 4  # N = 22 is no other size here, so an operand with a 22 spans the whole sequence
    q, k, v = make(1, 2, n, 4, 3, seed=7)
    Watch.calls = []
    out = _call(entry, *(t.as_subclass(Watch) for t in (q, k, v)), window, bs)
    whole = [(name, shapes) for name, shapes, _ in Watch.calls if any(n in s[-2:] for s in shapes)]
    assert not whole, say(
        f"N = {n}, window {window}, block_size {bs}: {whole[0][0]} got operands of shapes {whole[0][1]}, which span "
        "the whole sequence; banded attention multiplies only the key blocks that meet the band",
        f"N = {n}，window {window}，block_size {bs}：{whole[0][0]} 收到的操作数形状是 {whole[0][1]}，覆盖了整条序列；"
        "带状 attention 只乘与带相交的 key 块")
    assert _allclose(out.as_subclass(torch.Tensor), reference(q, k, v, window), atol=1e-10, rtol=1e-8), say(
        f"N = {n}, window {window}, block_size {bs}: the output differs from attention under the band mask",
        f"N = {n}，window {window}，block_size {bs}：输出与带状 mask 下的 attention 不一致")


def test_work_is_only_the_band(entry):
    # N = 40, window 5, block_size 4: the band meets 3 key blocks per query block, causal attention up to 10. The
    # products (Q K^T and P V over the computed blocks) may cost what the band's blocks cost, with room to spare for
    # a small extra product, not what every block up to the diagonal costs.
    b, h, n, e, ev, window, bs = 1, 2, 40, 8, 8, 5, 4
    q, k, v = make(b, h, n, e, ev, seed=8)
    Watch.calls = []
    out = _call(entry, *(t.as_subclass(Watch) for t in (q, k, v)), window, bs)
    spent = sum(_work(name, shapes, eq) for name, shapes, eq in Watch.calls)
    def size(blk):
        return min(n, (blk + 1) * bs) - blk * bs
    band_work = sum(b * h * size(qb) * size(kb) * (e + ev) for qb, kb in expected_blocks(n, window, bs))
    causal_work = sum(b * h * size(qb) * size(kb) * (e + ev) for qb in range(-(-n // bs)) for kb in range(qb + 1))
    assert spent <= 1.25 * band_work, say(
        f"N = {n}, window {window}, block_size {bs}: the matrix products cost {spent} multiply-adds, while Q K^T and "
        f"P V over the blocks that meet the band cost {band_work} (every key block up to the diagonal: {causal_work}). "
        "Blocks wholly below the band were multiplied too, masked out or not; skip them",
        f"N = {n}，window {window}，block_size {bs}：矩阵乘共花了 {spent} 次乘加，而只在与带相交的块上做 Q K^T 和 P V "
        f"只需 {band_work} 次（对角线以下的所有 key 块：{causal_work} 次）。完全在带下方的块也被乘了，"
        "不管有没有被 mask 掉；应跳过它们")
    assert _allclose(out.as_subclass(torch.Tensor), reference(q, k, v, window), atol=1e-10, rtol=1e-8), say(
        f"N = {n}, window {window}, block_size {bs}: the output differs from attention under the band mask",
        f"N = {n}，window {window}，block_size {bs}：输出与带状 mask 下的 attention 不一致")


def observe():
    """What Watch saw during one call of the learner's code (sent to the judge with the call's record)."""
    return [(name, [list(s) for s in shapes], eq) for name, shapes, eq in Watch.calls]


def restore(observed):
    """On the judge's side: Watch as the learner's call left it."""
    Watch.calls = [(str(name), [tuple(int(d) for d in s) for s in shapes], str(eq)) for name, shapes, eq in observed]
