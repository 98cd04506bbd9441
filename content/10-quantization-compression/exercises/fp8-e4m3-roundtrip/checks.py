"""Per-tensor amax scaling into torch.float8_e4m3fn: a reference that casts with torch itself, and the tests."""

import torch

from quiz.grader.say import say

E4M3 = torch.float8_e4m3fn  # taken when the checks load, before any learner code runs
E5M2 = torch.float8_e5m2
FP8_MAX = 448.0


def reference_scale(amax):
    amax = torch.as_tensor(amax, dtype=torch.float32)
    return torch.where(amax > 0, amax / FP8_MAX, torch.ones_like(amax))


def cast(x, scale, dtype=E4M3, limit=FP8_MAX):
    return (x / scale).clamp(-limit, limit).to(dtype).to(torch.float64)


def data(seed, n=2000):
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(n, generator=gen) * 3


def _quantize(entry, x, amax=None):
    out = entry.quantize(x.clone()) if amax is None else entry.quantize(x.clone(), amax)
    assert isinstance(out, (tuple, list)) and len(out) == 2, say(
        f"quantize should return (q, scale), got {type(out).__name__}",
        f"quantize 应返回 (q, scale)，实际返回了 {type(out).__name__}")
    q, scale = out
    assert isinstance(q, torch.Tensor) and q.shape == x.shape, say(
        f"q should be a tensor of x's shape {tuple(x.shape)}, got {type(q).__name__} {tuple(getattr(q, 'shape', ()))}",
        f"q 应是与 x 同形状 {tuple(x.shape)} 的 tensor，实际是 {type(q).__name__} {tuple(getattr(q, 'shape', ()))}")
    # float8 is carried back to the judge as float64, so both stand for "float8_e4m3fn" here
    assert q.dtype in (E4M3, torch.float64), say(
        f"q should be a torch.float8_e4m3fn tensor (1 byte per value), got {q.dtype}: converting it back to a wider "
        "type is dequantize's job",
        f"q 应是 torch.float8_e4m3fn tensor（每个值 1 字节），实际是 {q.dtype}：转回更宽的类型是 dequantize 的事")
    assert isinstance(scale, torch.Tensor) and scale.dtype == torch.float32 and scale.numel() == 1, say(
        f"scale should be a one-element float32 tensor (as torch._scaled_mm's scales are), got "
        f"{getattr(scale, 'dtype', type(scale).__name__)} of {getattr(scale, 'numel', lambda: '?')()} element(s)",
        f"scale 应是只有一个元素的 float32 tensor（与 torch._scaled_mm 的 scale 一样），实际是 "
        f"{getattr(scale, 'dtype', type(scale).__name__)}，{getattr(scale, 'numel', lambda: '?')()} 个元素")
    return q.to(torch.float64), scale.reshape(())


def _scale_mistake(scale, amax):
    s = float(scale)
    for value, en, zh in (
        (amax / 127, "amax / 127 is the int8 scale; E4M3's largest finite value is 448",
         "amax / 127 是 int8 的 scale；E4M3 最大的有限值是 448"),
        (FP8_MAX / amax if amax else 0.0, "that is 448 / amax, the reciprocal: Transformer Engine's scaling factor "
         "multiplies before the cast, but this scale is the one that multiplies to dequantize",
         "这是 448 / amax，倒数：Transformer Engine 的 scaling factor 在转换前相乘，而这里的 scale 是反量化时乘的那个"),
        (amax / 57344, "57344 is the largest E5M2 value; this is E4M3, whose largest is 448",
         "57344 是 E5M2 的最大值；这里是 E4M3，最大值是 448"),
        (amax / 240, "240 is the largest value of float8_e4m3fnuz; float8_e4m3fn reaches 448",
         "240 是 float8_e4m3fnuz 的最大值；float8_e4m3fn 可以到 448"),
    ):
        if value and abs(s - value) <= 1e-6 * abs(value):
            return say(f" ({en})", f"（{zh}）")
    return ""


def _check(entry, x, amax=None, note=""):
    q, scale = _quantize(entry, x, amax)
    used = float(x.abs().max()) if amax is None else float(amax)
    want_scale = reference_scale(used)
    if amax is not None and abs(float(scale) - float(reference_scale(x.abs().max()))) <= 1e-7 * float(scale):
        note = say(" (that is x's own amax: when amax is given, as delayed scaling does from its history, use it)",
                   "（这是 x 自己的 amax：给定 amax 时（delayed scaling 从历史中取），就用给定的值）")
    assert abs(float(scale) - float(want_scale)) <= 1e-7 * float(want_scale), say(
        f"scale should be amax / 448 = {float(want_scale):.6g} (amax = {used:.6g}), got {float(scale):.6g}"
        f"{_scale_mistake(scale, used)}{note}",
        f"scale 应为 amax / 448 = {float(want_scale):.6g}（amax = {used:.6g}），实际是 {float(scale):.6g}"
        f"{_scale_mistake(scale, used)}{note}")
    want = cast(x, scale)
    also = (x * (1 / scale)).clamp(-FP8_MAX, FP8_MAX).to(E4M3).to(torch.float64)  # x * (1 / scale) is as good
    bad = ((q != want) & (q != also)).nonzero().flatten().tolist()
    if not bad:
        return q, scale
    hint = ""
    if not torch.equal(q.to(E4M3).to(torch.float64), q):
        hint = say(" (q holds values that E4M3 cannot represent: cast with .to(torch.float8_e4m3fn))",
                   "（q 里有 E4M3 无法表示的值：要用 .to(torch.float8_e4m3fn) 转换）")
    elif torch.equal(q, cast(x, scale, E5M2)):
        hint = say(" (those are E5M2 values, 2 mantissa bits: use torch.float8_e4m3fn, 3 mantissa bits)",
                   "（这些是 E5M2 的值，只有 2 位尾数：应使用 torch.float8_e4m3fn，3 位尾数）")
    i = bad[0]
    assert False, say(
        f"{len(bad)} value(s) of q differ from (x / scale).to(torch.float8_e4m3fn), first at {i}: x = {float(x[i]):.6g}, "
        f"expected {float(want[i]):.6g}, got {float(q[i]):.6g}{hint}{note}",
        f"q 有 {len(bad)} 个值与 (x / scale).to(torch.float8_e4m3fn) 不同，第一个在 {i}：x = {float(x[i]):.6g}，"
        f"应为 {float(want[i]):.6g}，实际是 {float(q[i]):.6g}{hint}{note}")


def test_scale_and_codes(entry):
    q, _ = _check(entry, data(1))
    i = int(data(1).abs().argmax())
    assert abs(float(q[i])) == FP8_MAX, say(
        f"the element of largest magnitude should map to +-448, the top of E4M3, got {float(q[i])}",
        f"绝对值最大的元素应映射到 +-448，即 E4M3 的最大值，实际是 {float(q[i])}")


def test_small_and_large_tensors(entry):
    _check(entry, data(2, 300) * 1e-4, note=say(" (a tensor of tiny values: the scale brings them up to the FP8 range)",
                                                 "（数值很小的张量：scale 把它们放大到 FP8 的范围）"))
    _check(entry, data(3, 300) * 1e5, note=say(" (a tensor of huge values: without scaling they would overflow 448)",
                                                "（数值很大的张量：不缩放就会超出 448）"))


def test_zero_tensor(entry):
    x = torch.zeros(64)
    q, scale = _quantize(entry, x)
    assert float(scale) == 1.0 and bool((q == 0).all()), say(
        f"an all-zero tensor has amax 0: use scale 1 (not 0 / 448, which divides by zero), and q is all zeros; "
        f"got scale {float(scale)} and q {q[:4].tolist()}...",
        f"全零张量的 amax 是 0：scale 取 1（而不是会除以零的 0 / 448），q 全为 0；实际 scale 是 {float(scale)}，q 是 {q[:4].tolist()}...")


def test_delayed_scaling(entry):
    x = data(4, 500)
    amax_now = float(x.abs().max())
    # a history amax below the current one: values beyond it saturate at +-448
    _check(entry, x, torch.tensor(amax_now / 4), say(
        ". With an amax from history (delayed scaling) the current tensor can exceed it: clamp x / scale to "
        "[-448, 448] before the cast",
        "。amax 来自历史（delayed scaling）时，当前张量可能超出它：转换前把 x / scale 截到 [-448, 448]"))
    _check(entry, x, torch.tensor(amax_now * 8), say(
        ". When amax is given, use it: do not recompute it from x",
        "。给定 amax 时就用它：不要从 x 重新计算"))


def test_dequantize(entry):
    x = data(5, 400)
    scale = reference_scale(x.abs().max())
    q8 = (x / scale).to(E4M3)
    got = entry.dequantize(q8.clone(), scale.clone())
    want = q8.to(torch.float32) * scale
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32 and got.shape == want.shape, say(
        f"dequantize should return float32 of shape {tuple(want.shape)}, got "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}",
        f"dequantize 应返回形状 {tuple(want.shape)} 的 float32，实际是 "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}")
    if torch.allclose(got, want, rtol=1e-6, atol=0):
        return
    hint = ""
    if torch.allclose(got, q8.to(torch.float32) / scale, rtol=1e-6):
        hint = say(" (divided by scale; dequantizing multiplies: q.float() * scale)", "（除以了 scale；反量化是乘：q.float() * scale）")
    assert False, say(f"dequantize should be q.to(torch.float32) * scale{hint}",
                      f"dequantize 应为 q.to(torch.float32) * scale{hint}")


def test_relative_error(entry):
    x = data(6, 3000)
    q, scale = _quantize(entry, x)
    back = entry.dequantize(q.to(E4M3), scale)  # the learner's q, as the float8 tensor it was
    assert isinstance(back, torch.Tensor) and back.shape == x.shape, say(
        "dequantize(q, scale) should have x's shape", "dequantize(q, scale) 的形状应与 x 相同")
    err = (back.double() - x.double()).abs()
    s = float(scale)
    normal = x.abs().double() >= 2.0 ** -6 * s  # E4M3 normals start at 2^-6
    rel = err[normal] / x.abs().double()[normal]
    worst = float(rel.max())
    assert worst <= 2.0 ** -4 + 1e-6, say(
        f"relative error reaches {worst:.4f} for values in E4M3's normal range; 3 mantissa bits keep it within "
        f"2^-4 = 0.0625 (half a unit in the last place)",
        f"在 E4M3 的正规数范围内相对误差达到了 {worst:.4f}；3 位尾数应让它不超过 2^-4 = 0.0625（最后一位的一半）")
    worst_abs = float(err[~normal].max()) if bool((~normal).any()) else 0.0
    assert worst_abs <= 2.0 ** -10 * s * (1 + 1e-6), say(
        f"below E4M3's normal range (|x| < 2^-6 * scale) the error reaches {worst_abs:.3g}; the subnormal step is "
        f"2^-9 * scale, so it should stay within 2^-10 * scale = {2.0 ** -10 * s:.3g}",
        f"在 E4M3 正规数范围以下（|x| < 2^-6 * scale）误差达到了 {worst_abs:.3g}；次正规数的步长是 2^-9 * scale，"
        f"误差应不超过 2^-10 * scale = {2.0 ** -10 * s:.3g}")
