"""A float64 softmax as the reference, the usual float16 mistakes recomputed to name them, and the tests."""

import math

import torch

from quiz.grader.say import say

_softmax = torch.softmax  # taken when the checks load, before any learner code runs
_exp = torch.exp
_logsumexp = torch.logsumexp
_nan_to_num = torch.nan_to_num
_Generator = torch.Generator
_rand = torch.rand

FP16_MAX = 65504.0  # torch.finfo(torch.float16).max
SLACK = 2e-5  # relative room for the float32 arithmetic before the final rounding


def ulp16(v):
    """The spacing of float16 numbers at |v| (subnormals included), elementwise, in float64."""
    a = v.abs().double() * (1 + SLACK)
    e = torch.floor(torch.log2(torch.where(a > 0, a, torch.ones_like(a))))
    e = torch.where(a > 0, e, torch.full_like(a, -14.0)).clamp(min=-14.0)
    return torch.pow(2.0, e - 10)


def reference(x, dim):
    """float64 softmax; a row of only -inf gives zeros."""
    p = _softmax(x.double(), dim)
    return torch.where(torch.isnan(p), torch.zeros_like(p), p)


def _ratio(e, dim):
    s = e.sum(dim=dim, keepdim=True)
    return e / s


def mistakes(x, dim):
    """Outputs of the usual wrong versions, each with what to say when the learner's output matches it."""
    x32 = x.float()
    m = x32.amax(dim=dim, keepdim=True)
    finite = torch.where(torch.isneginf(x32), torch.full_like(x32, math.inf), x32)
    lo = finite.amin(dim=dim, keepdim=True)
    lo = torch.where(torch.isinf(lo), torch.zeros_like(lo), lo)
    safe_m = torch.where(torch.isneginf(m), torch.zeros_like(m), m)
    e16 = _exp(x32 - safe_m).half()
    return [
        (_ratio(_exp(x), dim),
         say("exp without subtracting the max, in float16: exp(12) = 162755 is above 65504, the largest float16, "
             "so it becomes inf and inf / inf is nan; subtract the row max first",
             "没有先减最大值就在 float16 里算 exp：exp(12) = 162755 超过了 float16 的最大值 65504，变成 inf，"
             "inf / inf 得 nan；要先减去这一行的最大值")),
        (_ratio(_exp(x32), dim).half(),
         say("exp without subtracting the max: even in float32 exp overflows above about 88.7; subtract the row max",
             "没有先减最大值就算 exp：即使在 float32 里，exp 超过约 88.7 也会溢出；要先减去这一行的最大值")),
        (_ratio(_exp(x32 - lo), dim).half(),
         say("the row min was subtracted instead of the max: x - min is >= 0 and exp of a large positive number "
             "overflows; subtracting the max makes every exponent <= 0, so every exp is at most 1",
             "减去的是最小值而不是最大值：x - min >= 0，正的大数取 exp 会溢出；减去最大值后每个指数都 <= 0，"
             "exp 都不超过 1")),
        (_ratio(e16, dim),
         say("the exps were rounded to float16 before the sum and the division: three float16 roundings instead "
             "of one; keep exp, sum and division in float32 and round once at the end",
             "exp 在求和与除法之前就被舍入成了 float16：舍入了三次而不是一次；exp、求和、除法都留在 float32，"
             "最后只舍入一次")),
        (_ratio(_exp(x - x.amax(dim=dim, keepdim=True)), dim),
         say("the max subtraction and the exp were done in float16: x - max is rounded to float16 (a step of "
             "1/128 near 10), and exp turns that into a relative error of up to 0.4%; compute in float32",
             "减最大值和 exp 都在 float16 里做：x - max 被舍入到 float16（在 10 附近步长 1/128），"
             "exp 把它放大成最高约 0.4% 的相对误差；要在 float32 里算")),
        (_nan_to_num(_exp(x32 - _logsumexp(x32, dim, keepdim=True)), nan=0.0).half(),
         say("exp(x - logsumexp(x)) in float32: logsumexp adds the max back (lse = m + log(s)), and near 65504 "
             "float32 numbers are 1/256 apart, so lse has already lost bits; take exp((x - m) - log(s)) or "
             "divide by the sum instead",
             "在 float32 里算 exp(x - logsumexp(x))：logsumexp 把最大值加了回去（lse = m + log(s)），而在 65504 附近 "
             "float32 的间距是 1/256，lse 已经丢了位；改用 exp((x - m) - log(s))，或者直接除以和")),
    ]


def _same(a, b):
    return a.shape == b.shape and bool(((a.double() == b.double()) | (torch.isnan(a) & torch.isnan(b))).all())


def diagnose(x, dim, got):
    for out, text in mistakes(x, dim):
        if _same(got, out):
            return say(f" (this looks like: {text})", f"（看起来是：{text}）")
    return ""


def logits(seed, shape, lo, hi):
    gen = _Generator().manual_seed(seed)
    return (_rand(shape, generator=gen, dtype=torch.float64) * (hi - lo) + lo).half()


def _check(entry, x, dim, what):
    keep = x.clone()
    got = entry(x, dim=dim)
    assert isinstance(got, torch.Tensor), say(f"{what}: softmax_fp16 should return a tensor, got {type(got).__name__}",
                                              f"{what}：softmax_fp16 应返回张量，实际返回了 {type(got).__name__}")
    assert got.dtype == torch.float16 and got.shape == x.shape, say(
        f"{what}: expected a float16 tensor of shape {tuple(x.shape)}, got {got.dtype} of shape {tuple(got.shape)}",
        f"{what}：应返回形状为 {tuple(x.shape)} 的 float16 张量，实际是形状 {tuple(got.shape)} 的 {got.dtype}",
    )
    assert torch.equal(x, keep), say(f"{what}: the input was changed in place; leave x alone",
                                     f"{what}：输入被原地修改了；不要改动 x")
    ref = reference(keep, dim)
    hint = diagnose(keep, dim, got)
    bad = ~torch.isfinite(got)
    masked = torch.isneginf(keep).all(dim=dim, keepdim=True).expand_as(keep)
    if (bad & masked).any():
        at = tuple((bad & masked).nonzero()[0].tolist())
        raise AssertionError(say(
            f"{what}: the output at {at} is {float(got[at])}, in a row that is all -inf (fully masked): its max is "
            f"-inf and -inf - (-inf) is nan; the contract is zeros for such a row",
            f"{what}：位置 {at} 的输出是 {float(got[at])}，它所在的行全是 -inf（整行被 mask）：这一行的最大值是 "
            f"-inf，-inf - (-inf) 得 nan；约定是这样的行输出全 0"))
    if bad.any():
        at = tuple(bad.nonzero()[0].tolist())
        raise AssertionError(say(
            f"{what}: {int(bad.sum())} output(s) are nan or inf, the first at {at} (logit {float(keep[at])}); "
            f"every output must be finite{hint}",
            f"{what}：有 {int(bad.sum())} 个输出是 nan 或 inf，第一个在 {at}（logit {float(keep[at])}）；"
            f"每个输出都必须是有限值{hint}"))
    err = (got.double() - ref).abs()
    ulps = err / ulp16(ref)
    tol = 0.5 * ulp16(ref) + SLACK * ref.abs()
    if not bool((err <= tol).all()):
        at = tuple(int(i) for i in torch.unravel_index((err / tol).flatten().argmax(), err.shape))
        raise AssertionError(say(
            f"{what}: at {at} got {float(got[at]):.6g}, the float64 softmax is {float(ref[at]):.6g}: off by "
            f"{float(ulps[at]):.2f} float16 ulps, where one rounding to float16 at the end allows 0.5{hint}",
            f"{what}：位置 {at} 得到 {float(got[at]):.6g}，float64 softmax 是 {float(ref[at]):.6g}：相差 "
            f"{float(ulps[at]):.2f} 个 float16 ulp，而最后只舍入一次到 float16 只允许 0.5 个{hint}"))


def test_random_logits(entry):
    _check(entry, logits(1, (6, 37), -8, 8), -1, say("logits in [-8, 8), shape (6, 37), dim=-1",
                                                     "logit 在 [-8, 8)，形状 (6, 37)，dim=-1"))
    _check(entry, logits(2, (33, 5), -4, 4), 0, say("shape (33, 5), dim=0", "形状 (33, 5)，dim=0"))
    _check(entry, logits(3, (2, 17, 3), -6, 6), 1, say("shape (2, 17, 3), dim=1", "形状 (2, 17, 3)，dim=1"))


def test_large_logits(entry):
    rows = torch.tensor([[12.0, 12.5, 13.0, 11.0, 9.0, 14.0],
                         [60000.0, 59968.0, 65504.0, 65472.0, 65500.0, 0.0],
                         [-100.0, 100.0, 30.0, 99.0, -50.0, 0.0]], dtype=torch.float16)
    _check(entry, rows, -1, say("large logits (exp(x) overflows float16 above ln 65504 = 11.09)",
                                "大 logit（x 超过 ln 65504 = 11.09 时 exp(x) 在 float16 里溢出）"))
    _check(entry, logits(4, (4, 50), 10, 20), -1, say("logits in [10, 20), shape (4, 50)",
                                                      "logit 在 [10, 20)，形状 (4, 50)"))


def test_masked_rows(entry):
    x = logits(5, (4, 9), -3, 15)
    x[0, 2:5] = -math.inf
    x[1, :] = -math.inf
    x[2, :8] = -math.inf
    x[3, ::2] = -math.inf
    _check(entry, x, -1, say("rows with -inf masks (row 1 is all -inf and must give zeros)",
                             "带 -inf mask 的行（第 1 行全是 -inf，结果应全为 0）"))


def test_long_rows(entry):
    uniform = torch.zeros(2, 4096, dtype=torch.float16)
    _check(entry, uniform, -1, say("two rows of 4096 equal logits (each probability 1/4096)",
                                   "两行各 4096 个相等的 logit（每个概率 1/4096）"))
    _check(entry, logits(6, (3, 2000), -6, 6), -1, say("rows of 2000 logits in [-6, 6)", "2000 个 logit 一行，范围 [-6, 6)"))
