"""Autograd through SDPA as the reference for a blockwise attention backward from the saved logsumexp, and the usual slips."""

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
_grad = torch.autograd.grad
_enable_grad = torch.enable_grad


def make(shape, seed, spread=1.0):
    """q, k, v, o, dO and lse for (B, H, L, S, E, Ev); o and lse from the forward, dO random."""
    b, h, L, S, e, ev = shape
    gen = _Generator().manual_seed(seed)
    q = (_rand(b, h, L, e, generator=gen, dtype=torch.float64) * 2 - 1) * spread
    k = (_rand(b, h, S, e, generator=gen, dtype=torch.float64) * 2 - 1) * spread
    v = _rand(b, h, S, ev, generator=gen, dtype=torch.float64) * 2 - 1
    do = _rand(b, h, L, ev, generator=gen, dtype=torch.float64) * 2 - 1
    o = _sdpa(q, k, v)
    lse = _logsumexp(_matmul(q, k.transpose(-1, -2)) / math.sqrt(e), dim=-1)
    return q, k, v, o, do, lse


def reference(q, k, v, do):
    with _enable_grad():
        xs = [t.detach().clone().requires_grad_(True) for t in (q, k, v)]
        out = _sdpa(*xs)
        return _grad(out, xs, do)


def blockwise(q, k, v, o, do, lse, bs, d_term=True, scale_dq_dk=True, use_lse=True, block_softmax=False,
              d_per_block=False, accumulate_dq=True, scale_p=True):
    """The blockwise backward with switches for the usual mistakes (all defaults: correct)."""
    scale = 1 / math.sqrt(q.shape[-1])
    D = (do * o).sum(-1, keepdim=True)
    dq = torch.zeros_like(q)
    dk, dv = torch.zeros_like(k), torch.zeros_like(v)
    for j in range(0, k.shape[-2], bs):
        kb, vb = k[..., j:j + bs, :], v[..., j:j + bs, :]
        s = _matmul(q, kb.transpose(-1, -2)) * (scale if scale_p else 1.0)
        if block_softmax:
            p = torch.softmax(s, dim=-1)
        else:
            p = _exp(s - lse[..., None]) if use_lse else _exp(s)
        dv[..., j:j + bs, :] = _matmul(p.transpose(-1, -2), do)
        dp = _matmul(do, vb.transpose(-1, -2))
        ds = p * (dp - D) if d_term else p * dp
        if d_per_block:
            ds = p * (dp - (p * dp).sum(-1, keepdim=True))
        c = scale if scale_dq_dk else 1.0
        dq = (dq if accumulate_dq else 0) + _matmul(ds, kb) * c
        dk[..., j:j + bs, :] = _matmul(ds.transpose(-1, -2), q) * c
    return dq, dk, dv


MISTAKES = [
    ({"d_term": False}, "dS = P * dP without subtracting D = rowsum(dO * O): the softmax backward is P * (dP - D)",
     "dS = P * dP，没有减去 D = rowsum(dO * O)：softmax 的反向是 P * (dP - D)"),
    ({"scale_dq_dk": False}, "the 1/sqrt(E) scale is missing from dQ and dK (S = Q K^T / sqrt(E), so both carry it)",
     "dQ 和 dK 里少了缩放因子 1/sqrt(E)（S = Q K^T / sqrt(E)，所以两者都要乘它）"),
    ({"use_lse": False}, "P = exp(S) without subtracting the saved logsumexp, so P is not normalised",
     "P = exp(S)，没有减去保存的 logsumexp，所以 P 没有归一化"),
    ({"accumulate_dq": False}, "dQ was overwritten by each key block (dq = ...) instead of summed over the blocks "
     "(dq += ...), so only the last block's keys reach it",
     "每个 key 块都覆盖了 dQ（dq = ...），而不是把各块相加（dq += ...），所以只有最后一块的 key 进入了 dQ"),
    ({"scale_p": False}, "P was recomputed from Q K^T without the 1/sqrt(E) scale; lse was taken over the scaled scores, "
     "so P = exp(Q K^T / sqrt(E) - lse)",
     "重算 P 时 Q K^T 没有乘 1/sqrt(E)；lse 是在缩放后的分数上取的，所以 P = exp(Q K^T / sqrt(E) - lse)"),
    ({"block_softmax": True}, "a softmax within each key block: each block's probabilities sum to 1 on their own; "
     "P = exp(S - lse) uses the logsumexp over all keys",
     "在每个 key 块内部做 softmax：每块的概率各自加起来为 1；P = exp(S - lse) 用的是所有 key 上的 logsumexp"),
    ({"d_per_block": True}, "D taken as rowsum(P * dP) over this key block only; D = rowsum(dO * O) equals rowsum(P * dP) "
     "over all keys, which is why it is computed once from O before the loop",
     "D 取的是当前 key 块内的 rowsum(P * dP)；D = rowsum(dO * O) 等于所有 key 上的 rowsum(P * dP)，"
     "所以在循环之前用 O 算一次"),
]


def _named_mistake(args, bs, got):
    for kw, en, zh in MISTAKES:
        wrong = blockwise(*args, bs, **kw)
        if all(_allclose(g, w, atol=1e-9, rtol=1e-7) for g, w in zip(got, wrong)):
            return say(f" This looks like a slip: {en}.", f"看起来是这个错误：{zh}。")
    return ""


def _compare(entry, shape, bs, seed, spread=1.0):
    args = make(shape, seed, spread)
    q, k, v, o, do, lse = args
    got = entry(q, k, v, o, do, lse, bs)
    where = say(f"(B, H, L, S, E, Ev) = {shape}, block_size {bs}", f"(B, H, L, S, E, Ev) = {shape}，block_size {bs}")
    assert isinstance(got, (tuple, list)) and len(got) == 3 and all(isinstance(g, torch.Tensor) for g in got), say(
        f"{where}: attention_backward should return a tuple of three tensors (dq, dk, dv)",
        f"{where}：attention_backward 应返回三个 tensor 组成的元组 (dq, dk, dv)")
    want = reference(q, k, v, do)
    for name, g, w in zip(("dq", "dk", "dv"), got, want):
        assert tuple(g.shape) == tuple(w.shape) and g.dtype == torch.float64, say(
            f"{where}: {name} should be float64 of shape {tuple(w.shape)}, got {g.dtype} {tuple(g.shape)}",
            f"{where}：{name} 应为 float64、形状 {tuple(w.shape)}，实际是 {g.dtype} {tuple(g.shape)}")
    wrong = [n for n, g, w in zip(("dq", "dk", "dv"), got, want) if not _allclose(g, w, atol=1e-9, rtol=1e-7)]
    if not wrong:
        return
    top = float(_matmul(q, k.transpose(-1, -2)).abs().max()) / math.sqrt(shape[4])
    if not all(bool(torch.isfinite(g).all()) for g in got):
        extra = say(f" Scores reach about {top:.0f}: exp(S) overflows past 709, while exp(S - lse) never exceeds 1 when "
                    "S is recomputed exactly as the forward scored it, Q K^T / sqrt(E).",
                    f"分数最大约 {top:.0f}：exp(S) 超过 709 就溢出，而只要 S 按前向的方式重算（Q K^T / sqrt(E)），"
                    "exp(S - lse) 就不会超过 1。")
    else:
        extra = _named_mistake(args, bs, got)
    errs = ", ".join(f"{n} {float((g - w).abs().max()):.3g}" for n, g, w in zip(("dq", "dk", "dv"), got, want))
    raise AssertionError(say(
        f"{where}: {', '.join(wrong)} differ{'s' if len(wrong) == 1 else ''} from autograd through scaled_dot_product_attention (largest errors: "
        f"{errs}).{extra}",
        f"{where}：{'、'.join(wrong)} 与通过 scaled_dot_product_attention 的 autograd 结果不一致（最大误差：{errs}）。{extra}"))


def test_grads_match_autograd(entry):
    _compare(entry, (1, 2, 6, 10, 4, 3), 4, seed=1)
    _compare(entry, (2, 1, 5, 7, 8, 5), 3, seed=2)


def test_block_sizes_one_and_larger_than_s(entry):
    _compare(entry, (1, 2, 4, 5, 4, 4), 1, seed=3)
    _compare(entry, (1, 2, 4, 5, 4, 4), 32, seed=4)


def test_large_scores_stay_finite(entry):
    # q and k of size about 40 in 4 dimensions: scaled scores exceed 709, where exp overflows float64
    _compare(entry, (1, 2, 5, 9, 4, 3), 4, seed=5, spread=40.0)


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


def test_never_builds_the_full_probability_matrix(entry):
    shape, bs = (1, 2, 5, 11, 4, 3), 4  # S = 11 is no other size here, so any operand with an 11 saw every key
    S = shape[3]
    q, k, v, o, do, lse = make(shape, seed=6)
    Watch.calls = []
    got = entry(*(t.as_subclass(Watch) for t in (q, k, v, o, do, lse)), bs)
    whole = [(name, shapes) for name, shapes in Watch.calls if any(S in s[-2:] for s in shapes)]
    assert not whole, say(
        f"S = {S}, block_size = {bs}: {whole[0][0]} got operands of shapes {whole[0][1]}, which span all {S} keys; "
        "the backward recomputes P one key block at a time from lse and never holds the whole L x S matrix",
        f"S = {S}，block_size = {bs}：{whole[0][0]} 收到的操作数形状是 {whole[0][1]}，覆盖了全部 {S} 个 key；"
        "反向应按 key 块用 lse 重算 P，任何时候都不持有完整的 L x S 矩阵")
    want = reference(q, k, v, do)
    ok = isinstance(got, (tuple, list)) and len(got) == 3 and all(
        isinstance(g, torch.Tensor) and _allclose(g.as_subclass(torch.Tensor), w, atol=1e-9, rtol=1e-7)
        for g, w in zip(got, want))
    assert ok, say(f"S = {S}, block_size = {bs}: (dq, dk, dv) differ from autograd through SDPA",
                   f"S = {S}，block_size = {bs}：(dq, dk, dv) 与通过 SDPA 的 autograd 结果不一致")


def observe():
    """What Watch saw during one call of the learner's code (sent to the judge with the call's record)."""
    return [(name, [list(s) for s in shapes]) for name, shapes in Watch.calls]


def restore(observed):
    """On the judge's side: Watch as the learner's call left it."""
    Watch.calls = [(str(name), [tuple(int(d) for d in s) for s in shapes]) for name, shapes in observed]
