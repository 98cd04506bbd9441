"""torch's own scaled_dot_product_attention as the reference for a hand-written one: masks, causal alignment, scale."""

import math

import torch
import torch.nn.functional as F

from quiz.grader.say import say

_sdpa = F.scaled_dot_product_attention  # taken when the checks load, before any learner code runs
_Generator = torch.Generator
_rand = torch.rand
_allclose = torch.allclose
_grad = torch.autograd.grad
_enable_grad = torch.enable_grad
_ones = torch.ones
_safe_softmax = torch.ops.aten._safe_softmax


def rand(*shape, seed, low=-1.0, high=1.0):
    gen = _Generator().manual_seed(seed)
    return _rand(*shape, generator=gen, dtype=torch.float64) * (high - low) + low


def qkv(lead, L, S, E, Ev, seed):
    return rand(*lead, L, E, seed=seed), rand(*lead, S, E, seed=seed + 1), rand(*lead, S, Ev, seed=seed + 2)


def bool_mask(shape, seed, p=0.6):
    return rand(*shape, seed=seed, low=0.0, high=1.0) < p


def variant(q, k, v, attn_mask=None, is_causal=False, scale=None, *, invert=False, diagonal=0, bottom_right=False,
            scale_rule="E", float_as_bool=False, bool_as_float=False, scale_after_mask=False,
            zero_scale_as_default=False):
    """The documented math with switches for the usual mistakes (all defaults: torch's semantics)."""
    L, S, E = q.shape[-2], k.shape[-2], q.shape[-1]
    if zero_scale_as_default and scale == 0.0:
        scale = None
    default = {"E": 1 / math.sqrt(E), "L": 1 / math.sqrt(L), "S": 1 / math.sqrt(S), "none": 1.0, "times": math.sqrt(E)}
    factor = default[scale_rule] if scale is None or scale_rule != "E" else scale
    s = q @ k.transpose(-1, -2) * (1.0 if scale_after_mask else factor)
    keep = _ones(L, S, dtype=torch.bool)
    if is_causal:
        keep = keep.tril(diagonal=diagonal + (S - L if bottom_right else 0))
    if attn_mask is not None:
        if bool_as_float and attn_mask.dtype == torch.bool:
            s = s + attn_mask.to(s.dtype)
        elif attn_mask.dtype == torch.bool or float_as_bool:
            m = attn_mask.bool()
            keep = keep & (~m if invert else m)
        else:
            s = s + attn_mask
    if scale_after_mask:
        s = s * factor
    s = s.masked_fill(~keep, float("-inf"))
    p = _safe_softmax(s, -1)
    return p @ v


MISTAKES = [
    ({"invert": True}, "the boolean mask read the wrong way round: in SDPA True means the key takes part, False masks it",
     "布尔 mask 的含义反了：在 SDPA 里 True 表示该 key 参与，False 才是被屏蔽"),
    ({"diagonal": -1}, "a causal mask that drops the diagonal (tril(diagonal=-1)); query i also attends to key i itself",
     "causal mask 去掉了对角线（tril(diagonal=-1)）；query i 也要关注 key i 自己"),
    ({"diagonal": 1}, "a causal mask that lets query i see key i + 1", "causal mask 让 query i 看到了 key i + 1"),
    ({"bottom_right": True}, "a causal mask aligned to the bottom-right corner; SDPA's is_causal aligns it top-left, "
     "tril(ones(L, S)): query i sees keys 0..i whatever S is",
     "causal mask 按右下角对齐了；SDPA 的 is_causal 按左上角对齐，即 tril(ones(L, S))：不论 S 多大，query i 只看 key 0..i"),
    ({"scale_rule": "L"}, "scores scaled by 1/sqrt(L), the query length; the default scale is 1/sqrt(E), E = query.size(-1)",
     "分数乘的是 1/sqrt(L)（query 长度）；默认缩放是 1/sqrt(E)，E = query.size(-1)"),
    ({"scale_rule": "S"}, "scores scaled by 1/sqrt(S), the key length; the default scale is 1/sqrt(E)",
     "分数乘的是 1/sqrt(S)（key 长度）；默认缩放是 1/sqrt(E)"),
    ({"scale_rule": "times"}, "scores multiplied by sqrt(E) instead of divided", "分数乘了 sqrt(E)，而不是除以它"),
    ({"scale_rule": "none"}, "the scores were not scaled at all", "分数完全没有缩放"),
    ({"zero_scale_as_default": True}, "scale=0.0 treated as if no scale were given (`scale or 1/sqrt(E)`): only "
     "scale=None means 1/sqrt(E); scale=0.0 makes every score 0, so each query averages the values it may see",
     "把 scale=0.0 当成了没给 scale（`scale or 1/sqrt(E)`）：只有 scale=None 才表示 1/sqrt(E)；"
     "scale=0.0 让所有分数为 0，每个 query 对它能看的 value 取平均"),
    ({"scale_rule": "E", "scale": None}, "the scale argument ignored: when given, it replaces 1/sqrt(E)",
     "忽略了 scale 参数：给了 scale 时应用它代替 1/sqrt(E)"),
    ({"bool_as_float": True}, "a boolean mask added to the scores as 0/1; a boolean mask keeps (True) or masks "
     "(False, -inf) keys, it is not a bias", "把布尔 mask 当成 0/1 加到了分数上；布尔 mask 是保留（True）或屏蔽"
     "（False，-inf）key，不是偏置"),
    ({"scale_after_mask": True}, "the float mask was scaled together with the scores ((QK^T + mask) * scale); SDPA "
     "adds the mask after scaling: QK^T * scale + mask", "float mask 和分数一起被缩放了（(QK^T + mask) * scale）；"
     "SDPA 是先缩放再加 mask：QK^T * scale + mask"),
    ({"float_as_bool": True}, "a float mask treated as a keep/drop mask; a float attn_mask is added to the scores",
     "把 float mask 当成了保留/屏蔽的 mask；float 类型的 attn_mask 应加到分数上"),
]


def _hint(args, kw, got):
    for change, en, zh in MISTAKES:
        try:
            wrong = variant(*args, **{**kw, **change})
        except Exception:  # noqa: BLE001 - a variant that does not apply names nothing
            continue
        if _allclose(got, wrong, atol=1e-9, rtol=1e-7, equal_nan=True):
            return say(f" This looks like {en}.", f"看起来是这个错误：{zh}。")
    return ""


def _describe(args, kw):
    q, k, v = args
    parts = [f"query {tuple(q.shape)}", f"key {tuple(k.shape)}", f"value {tuple(v.shape)}"]
    for name, val in kw.items():
        if isinstance(val, torch.Tensor):
            parts.append(f"{name} {val.dtype} {tuple(val.shape)}")
        elif val is not None and val is not False:
            parts.append(f"{name}={val}")
    return ", ".join(parts)


def _dead_rows(args, kw):
    """Which output rows have every key masked (a bool tensor shaped like the output less its last axis)."""
    q, k, _ = args
    L, S = q.shape[-2], k.shape[-2]
    keep = _ones(L, S, dtype=torch.bool)
    if kw.get("is_causal"):
        keep = keep.tril()
    mask = kw.get("attn_mask")
    if mask is not None:
        keep = keep & (mask if mask.dtype == torch.bool else mask > float("-inf"))
    try:
        return (~keep.any(-1)).expand(q.shape[:-1])
    except RuntimeError:
        return None


def _compare(entry, args, **kw):
    got = entry(*args, **kw)
    want = _sdpa(*args, **kw)
    where = _describe(args, kw)
    assert isinstance(got, torch.Tensor) and tuple(got.shape) == tuple(want.shape) and got.dtype == want.dtype, say(
        f"{where}: expected a {want.dtype} tensor of shape {tuple(want.shape)}, got "
        + (f"{got.dtype} {tuple(got.shape)}" if isinstance(got, torch.Tensor) else type(got).__name__),
        f"{where}：应返回 {want.dtype}、形状 {tuple(want.shape)} 的 tensor，实际是 "
        + (f"{got.dtype} {tuple(got.shape)}" if isinstance(got, torch.Tensor) else type(got).__name__))
    if _allclose(got, want, atol=1e-10, rtol=1e-8):
        return
    nan_rows = got.isnan().any(-1)
    dead = _dead_rows(args, kw)
    if bool(nan_rows.any()) and dead is not None and bool((nan_rows <= dead).all()):
        extra = say(" NaN appears in rows whose keys are all masked: torch 2.13's SDPA returns zeros for such rows on "
                    "the CPU, where a plain softmax of an all -inf row gives NaN.",
                    "所有 key 都被屏蔽的行出现了 NaN：torch 2.13 的 SDPA 在 CPU 上对这样的行返回 0"
                    "，而普通 softmax 对全为 -inf 的行得到 NaN。")
    else:
        extra = _hint(args, kw, got)
    rows = (got - want).abs().amax(-1).flatten()
    raise AssertionError(say(
        f"{where}: {int((~(rows <= 1e-10)).sum())} of {rows.numel()} output rows differ from "
        f"torch.nn.functional.scaled_dot_product_attention (largest error {float(rows.max()):.3g}).{extra}",
        f"{where}：{rows.numel()} 个输出行中有 {int((~(rows <= 1e-10)).sum())} 行与 "
        f"torch.nn.functional.scaled_dot_product_attention 不一致（最大误差 {float(rows.max()):.3g}）。{extra}"))


def test_plain_attention(entry):
    _compare(entry, qkv((2, 3), 5, 7, 4, 6, seed=1))
    _compare(entry, qkv((4,), 3, 3, 16, 2, seed=2))


def test_explicit_scale(entry):
    _compare(entry, qkv((2, 2), 5, 6, 4, 3, seed=3), scale=0.3)
    _compare(entry, qkv((1, 2), 3, 5, 4, 3, seed=21), scale=0.0)


def test_causal_square(entry):
    _compare(entry, qkv((2, 2), 6, 6, 4, 3, seed=4), is_causal=True)


def test_causal_rectangular_is_top_left(entry):
    _compare(entry, qkv((1, 2), 4, 7, 4, 3, seed=5), is_causal=True)
    _compare(entry, qkv((1, 2), 7, 4, 4, 3, seed=6), is_causal=True)


def test_boolean_mask(entry):
    mask = bool_mask((5, 7), seed=7)
    mask[:, 0] = True  # every query keeps at least one key here
    _compare(entry, qkv((2, 3), 5, 7, 4, 3, seed=8), attn_mask=mask)
    per_batch = bool_mask((2, 1, 5, 7), seed=9)
    per_batch[..., 6] = True
    _compare(entry, qkv((2, 3), 5, 7, 4, 3, seed=10), attn_mask=per_batch)


def test_float_mask_is_added(entry):
    bias = rand(5, 7, seed=11, low=-3.0, high=3.0)
    bias[1, 2:] = float("-inf")
    _compare(entry, qkv((2, 3), 5, 7, 4, 3, seed=12), attn_mask=bias)


def test_fully_masked_rows_are_zero(entry):
    mask = bool_mask((4, 6), seed=13)
    mask[:, 0] = True
    mask[2] = False
    _compare(entry, qkv((1, 2), 4, 6, 4, 3, seed=14), attn_mask=mask)
    bias = rand(4, 6, seed=15)
    bias[0] = float("-inf")
    _compare(entry, qkv((1, 2), 4, 6, 4, 3, seed=16), attn_mask=bias)


def test_mask_and_causal_together_raise(entry):
    q, k, v = qkv((1, 1), 3, 3, 4, 2, seed=17)
    try:
        entry(q, k, v, attn_mask=_ones(3, 3, dtype=torch.bool), is_causal=True)
    except (ValueError, RuntimeError):
        return
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(say(
            f"attn_mask together with is_causal=True should raise ValueError or RuntimeError (SDPA refuses the pair), "
            f"got {type(exc).__name__}: {exc}",
            f"attn_mask 与 is_causal=True 同时给出时应抛出 ValueError 或 RuntimeError（SDPA 拒绝这种组合），"
            f"实际抛出了 {type(exc).__name__}: {exc}")) from None
    raise AssertionError(say(
        "attn_mask together with is_causal=True should raise ValueError or RuntimeError, as SDPA does; it returned",
        "attn_mask 与 is_causal=True 同时给出时应像 SDPA 一样抛出 ValueError 或 RuntimeError；实际正常返回了"))


def test_gradients_match(entry):
    q, k, v = (t.requires_grad_(True) for t in qkv((1, 2), 4, 5, 4, 3, seed=18))
    g = rand(1, 2, 4, 3, seed=19)
    got = entry(q, k, v, is_causal=True)
    assert isinstance(got, torch.Tensor) and got.requires_grad, say(
        "with inputs that require grad the output should carry a graph (write it with differentiable torch ops)",
        "输入需要梯度时，输出应带有计算图（用可求导的 torch 运算来写）")
    with _enable_grad():
        got_grads = _grad(got, (q, k, v), g, allow_unused=True)
        want_grads = _grad(_sdpa(q, k, v, is_causal=True), (q, k, v), g)
    for name, a, b in zip(("query", "key", "value"), got_grads, want_grads):
        assert a is not None and _allclose(a, b, atol=1e-9, rtol=1e-7), say(
            f"causal, query (1, 2, 4, 4), key (1, 2, 5, 4): the gradient of {name} differs from SDPA's",
            f"causal，query (1, 2, 4, 4)，key (1, 2, 5, 4)：{name} 的梯度与 SDPA 不一致")


def test_fully_masked_rows_have_zero_gradients(entry):
    # SDPA's fully masked rows are zeros that depend on nothing: their query rows get a zero gradient, and no key or
    # value gets anything from them. A NaN softmax patched afterwards (nan_to_num) still sends NaN backwards.
    q, k, v = (t.requires_grad_(True) for t in qkv((1, 2), 4, 6, 4, 3, seed=22))
    g = rand(1, 2, 4, 3, seed=23)
    for mask in (bool_mask((4, 6), seed=24), rand(4, 6, seed=25)):
        mask[:, 0] = True if mask.dtype == torch.bool else 0.0
        mask[1] = False if mask.dtype == torch.bool else float("-inf")
        kind = say("boolean", "布尔") if mask.dtype == torch.bool else say("float", "浮点")
        got = entry(q, k, v, attn_mask=mask)
        assert isinstance(got, torch.Tensor) and got.requires_grad, say(
            "with inputs that require grad the output should carry a graph (write it with differentiable torch ops)",
            "输入需要梯度时，输出应带有计算图（用可求导的 torch 运算来写）")
        with _enable_grad():
            got_grads = _grad(got, (q, k, v), g, allow_unused=True)
            want_grads = _grad(_sdpa(q, k, v, attn_mask=mask), (q, k, v), g)
        for name, a, b in zip(("query", "key", "value"), got_grads, want_grads):
            if a is not None and _allclose(a, b, atol=1e-9, rtol=1e-7):
                continue
            nan = a is not None and bool(a.isnan().any())
            raise AssertionError(say(
                f"a {kind} mask that masks every key of query 1, query (1, 2, 4, 4), key (1, 2, 6, 4): the gradient "
                f"of {name} differs from SDPA's"
                + (" and holds NaN: the softmax of an all -inf row is NaN and its backward stays NaN even when the "
                   "forward hides it (nan_to_num, torch.where); keep the row out of the softmax (softmax a finite stand-in, then "
                   "torch.where(row_ok, p, 0))" if nan else ""),
                f"{kind} mask 屏蔽了 query 1 的所有 key，query (1, 2, 4, 4)，key (1, 2, 6, 4)：{name} 的梯度与 SDPA 不一致"
                + ("，且含有 NaN：全 -inf 行的 softmax 是 NaN，即使前向把它盖住（nan_to_num、torch.where），反向仍是 NaN；"
                   "应让这一行不进 softmax（对一个有限的替代值做 softmax，再 torch.where(row_ok, p, 0)）" if nan else "")))


class Watch(torch.Tensor):
    """A tensor subclass that notes every attention function it is passed to."""

    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "") or str(func)
        if "attention" in name:
            cls.seen.append(name)
        return super().__torch_function__(func, types, args, kwargs or {})


def test_written_by_hand(entry):
    Watch.seen = []
    q, k, v = qkv((1, 2), 4, 5, 4, 3, seed=20)
    got = entry(q.as_subclass(Watch), k.as_subclass(Watch), v.as_subclass(Watch), is_causal=True)
    assert not Watch.seen, say(
        f"the function called {sorted(set(Watch.seen))}: the point is to write attention from matmul, masking and "
        "softmax, not to call torch's attention",
        f"函数调用了 {sorted(set(Watch.seen))}：本题要求用矩阵乘、mask 和 softmax 亲手写出 attention，而不是调用 torch 的 attention")
    assert isinstance(got, torch.Tensor) and _allclose(got.as_subclass(torch.Tensor), _sdpa(q, k, v, is_causal=True),
                                                       atol=1e-10, rtol=1e-8), say(
        "causal, query (1, 2, 4, 4), key (1, 2, 5, 4): the output differs from SDPA's",
        "causal，query (1, 2, 4, 4)，key (1, 2, 5, 4)：输出与 SDPA 不一致")


def observe():
    """The attention functions Watch saw during one call (sent to the judge with the call's record)."""
    return list(Watch.seen)


def restore(observed):
    """On the judge's side: Watch as the learner's call left it."""
    Watch.seen = [str(n) for n in observed]
