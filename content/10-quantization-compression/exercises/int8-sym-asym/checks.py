"""References for per-channel symmetric and per-tensor asymmetric int8 built on torch.quantize_per_channel and
torch.quantize_per_tensor, and the tests: codes, scales, zero-points, ties, the zero point of ReLU outputs, error."""

import warnings

import torch

from quiz.grader.say import say

_per_channel = torch.quantize_per_channel  # taken when the checks load, before any learner code runs
_per_tensor = torch.quantize_per_tensor
EPS = torch.finfo(torch.float32).eps


def _quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # these quantized-tensor constructors warn that they are deprecated
        return fn(*args)


def _amax(w, axis):
    dims = [d for d in range(w.dim()) if d != axis]
    return w.abs().amax(dim=dims) if dims else w.abs()


def symmetric_scale(w, axis):
    return (_amax(w, axis) / 127).clamp(min=EPS)


def symmetric_reference(w, axis, scale=None):
    scale = symmetric_scale(w, axis) if scale is None else scale
    qt = _quiet(_per_channel, w, scale.double(), torch.zeros(scale.numel(), dtype=torch.long), axis, torch.qint8)
    return qt.int_repr(), scale, qt.dequantize()


def asymmetric_params(x):
    lo, hi = x.min().clamp(max=0), x.max().clamp(min=0)
    scale = ((hi - lo) / 255).clamp(min=EPS)
    zp = (0 - torch.round(lo / scale)).clamp(0, 255)
    return float(scale), int(zp)


def asymmetric_reference(x, scale=None, zp=None):
    if scale is None:
        scale, zp = asymmetric_params(x)
    qt = _quiet(_per_tensor, x, scale, zp, torch.quint8)
    return qt.int_repr(), scale, zp, qt.dequantize()


def weights(seed, shape=(16, 64)):
    gen = torch.Generator().manual_seed(seed)
    w = torch.randn(*shape, generator=gen) * 0.05
    w[3] *= 40.0  # one output channel of large weights
    return w


def _symmetric(entry, w, axis):
    out = entry.quantize_per_channel_symmetric(w.clone(), axis)
    assert isinstance(out, (tuple, list)) and len(out) == 2, say(
        f"quantize_per_channel_symmetric should return (q, scale), got {type(out).__name__}",
        f"quantize_per_channel_symmetric 应返回 (q, scale)，实际返回了 {type(out).__name__}")
    q, scale = out
    channels = w.shape[axis]
    assert isinstance(q, torch.Tensor) and q.dtype == torch.int8 and q.shape == w.shape, say(
        f"q should be an int8 tensor of shape {tuple(w.shape)}, got {getattr(q, 'dtype', type(q).__name__)} "
        f"{tuple(getattr(q, 'shape', ()))}",
        f"q 应是形状 {tuple(w.shape)} 的 int8 tensor，实际是 {getattr(q, 'dtype', type(q).__name__)} {tuple(getattr(q, 'shape', ()))}")
    assert isinstance(scale, torch.Tensor) and scale.dtype == torch.float32 and tuple(scale.shape) == (channels,), say(
        f"scale should be a float32 tensor of shape ({channels},), one per channel along axis {axis}, got "
        f"{getattr(scale, 'dtype', type(scale).__name__)} {tuple(getattr(scale, 'shape', ()))}",
        f"scale 应是形状 ({channels},) 的 float32 tensor，沿 axis {axis} 每个通道一个，实际是 "
        f"{getattr(scale, 'dtype', type(scale).__name__)} {tuple(getattr(scale, 'shape', ()))}")
    return q, scale


def _scale_mistake(scale, w, axis):
    amax = _amax(w, axis)
    if torch.allclose(scale, torch.full_like(scale, float(w.abs().max()) / 127), rtol=1e-5):
        return say(" (one scale for the whole tensor: per-channel takes amax over every dim except axis, "
                   "so one large channel does not coarsen the others)",
                   "（整个张量用了同一个 scale：按通道量化要在 axis 之外的所有维度上取 amax，"
                   "这样一个数值大的通道不会让其他通道变粗）")
    for k, why in ((255, "255 is the number of steps of the whole int8 range; symmetric maps amax to 127"),
                   (127.5, "that is PyTorch's observer for qint8 [-128, 127]; here the range is the symmetric [-127, 127]"),
                   (128, "amax must map to 127, the largest code, not 128")):
        if torch.allclose(scale, amax / k, rtol=1e-5):
            return say(f" (that is amax / {k}: {why})", f"（这是 amax / {k}：{why}）")
    return ""


def _codes_mistake(q, w, scale, axis):
    """q: codes minus the zero-point; says which rounding produced them when it is a usual wrong one."""
    shape = [-1 if d == axis else 1 for d in range(w.dim())]
    r = w / scale.view(shape)
    q = q.to(torch.int16)
    lo, hi = (-128, 127) if axis is not None else (-255, 255)
    if torch.equal(q, r.trunc().clamp(lo, hi).to(torch.int16)) or torch.equal(q, r.floor().clamp(lo, hi).to(torch.int16)):
        return say(" (the fraction was cut off: casting with .to(torch.int8) or .to(torch.uint8) truncates; torch.round first)",
                   "（小数部分被直接丢掉了：.to(torch.int8) 或 .to(torch.uint8) 是截断；要先 torch.round）")
    if torch.equal(q, torch.floor(r + 0.5).clamp(lo, hi).to(torch.int16)):
        return say(" (halves rounded up with floor(x + 0.5); torch's quantize functions round halves to even, as torch.round does)",
                   "（用 floor(x + 0.5) 把一半向上取了；torch 的量化函数与 torch.round 一样把一半舍入到偶数）")
    if torch.equal(q, (r.abs() + 0.5).floor().mul(r.sign()).clamp(lo, hi).to(torch.int16)):
        return say(" (halves rounded away from zero; torch's quantize functions round halves to even, as torch.round does)",
                   "（一半被舍入到远离零的方向；torch 的量化函数与 torch.round 一样把一半舍入到偶数）")
    return ""


def _check_symmetric(entry, w, axis, note=""):
    q, scale = _symmetric(entry, w, axis)
    want_scale = symmetric_scale(w, axis)
    assert torch.allclose(scale, want_scale, rtol=1e-6, atol=0), say(
        f"axis {axis}: scale should be amax / 127 per channel, e.g. {want_scale[:3].tolist()}, got {scale[:3].tolist()}"
        f"{_scale_mistake(scale, w, axis)}{note}",
        f"axis {axis}：scale 应是每个通道的 amax / 127，例如 {want_scale[:3].tolist()}，实际是 {scale[:3].tolist()}"
        f"{_scale_mistake(scale, w, axis)}{note}")
    want_q, _, _ = symmetric_reference(w, axis, scale)  # codes from the scale given, so that 1-ulp scale differences never matter
    bad = (q != want_q).nonzero().tolist()
    assert not bad, say(
        f"axis {axis}: {len(bad)} code(s) differ from torch.quantize_per_channel(w, scale, 0, axis, torch.qint8), "
        f"first at {bad[0]}: expected {int(want_q[tuple(bad[0])])}, got {int(q[tuple(bad[0])])}"
        f"{_codes_mistake(q, w, scale, axis)}{note}",
        f"axis {axis}：有 {len(bad)} 个码值与 torch.quantize_per_channel(w, scale, 0, axis, torch.qint8) 不同，"
        f"第一个在 {bad[0]}：应为 {int(want_q[tuple(bad[0])])}，实际是 {int(q[tuple(bad[0])])}"
        f"{_codes_mistake(q, w, scale, axis)}{note}")


def test_symmetric_matches_torch(entry):
    _check_symmetric(entry, weights(1), 0)


def test_symmetric_ties_round_to_even(entry):
    w = torch.tensor([[0.25, 0.75, -1.25, -0.25, 2.5, 63.5], [1.0, -2.0, 3.0, 0.5, 0.25, 12.7]])
    _check_symmetric(entry, w, 0, say(
        ". Row 0 has scale 63.5 / 127 = 0.5, so 0.25 / 0.5 = 0.5 is an exact tie: it rounds to the even 0",
        "。第 0 行 scale = 63.5 / 127 = 0.5，0.25 / 0.5 = 0.5 恰好在中点：舍入到偶数 0"))


def test_symmetric_other_axes(entry):
    conv = weights(2, (8, 3, 3, 3))
    _check_symmetric(entry, conv, 0, say(" (a conv weight (out, in, kh, kw): amax over in, kh and kw)",
                                         "（卷积权重 (out, in, kh, kw)：在 in、kh、kw 上取 amax）"))
    _check_symmetric(entry, weights(3, (6, 10)), 1)


def test_symmetric_zero_channel(entry):
    w = weights(4, (4, 8))
    w[2] = 0.0
    q, scale = _symmetric(entry, w, 0)
    assert bool(torch.isfinite(scale).all()) and float(scale[2]) > 0, say(
        f"an all-zero channel must still get a positive finite scale (clamp amax / 127 to at least "
        f"torch.finfo(torch.float32).eps, as PyTorch's observers do), got {float(scale[2])}",
        f"全零的通道也要有一个有限的正 scale（把 amax / 127 截到不小于 torch.finfo(torch.float32).eps，"
        f"PyTorch 的 observer 也这么做），实际是 {float(scale[2])}")
    _check_symmetric(entry, w, 0)


def _asymmetric(entry, x):
    out = entry.quantize_per_tensor_asymmetric(x.clone())
    assert isinstance(out, (tuple, list)) and len(out) == 3, say(
        f"quantize_per_tensor_asymmetric should return (q, scale, zero_point), got {type(out).__name__}",
        f"quantize_per_tensor_asymmetric 应返回 (q, scale, zero_point)，实际返回了 {type(out).__name__}")
    q, scale, zp = out
    assert isinstance(q, torch.Tensor) and q.dtype == torch.uint8 and q.shape == x.shape, say(
        f"q should be a uint8 tensor of shape {tuple(x.shape)} (codes 0..255, as torch.quint8), got "
        f"{getattr(q, 'dtype', type(q).__name__)} {tuple(getattr(q, 'shape', ()))}",
        f"q 应是形状 {tuple(x.shape)} 的 uint8 tensor（码值 0..255，与 torch.quint8 相同），实际是 "
        f"{getattr(q, 'dtype', type(q).__name__)} {tuple(getattr(q, 'shape', ()))}")
    assert isinstance(scale, float) and isinstance(zp, int) and not isinstance(zp, bool), say(
        f"scale should be a Python float and zero_point a Python int, got {type(scale).__name__} and {type(zp).__name__}",
        f"scale 应是 Python float，zero_point 应是 Python int，实际是 {type(scale).__name__} 和 {type(zp).__name__}")
    return q, scale, zp


def _check_asymmetric(entry, x, note=""):
    q, scale, zp = _asymmetric(entry, x)
    want_scale, want_zp = asymmetric_params(x)
    hint = ""
    lo, hi = float(x.min()), float(x.max())
    if abs(scale - (hi - lo) / 255) <= 1e-6 * scale and abs(want_scale - scale) > 1e-6 * want_scale:
        hint = say(" (the range must include 0: use min(x.min(), 0) and max(x.max(), 0), so that 0 gets an exact code)",
                   "（范围必须包含 0：用 min(x.min(), 0) 和 max(x.max(), 0)，这样 0 才有精确的码值）")
    elif zp == -want_zp or zp == round(lo / scale):
        hint = say(" (the zero-point has the wrong sign: zero_point = -round(min / scale), the code that stands for 0.0)",
                   "（zero_point 的符号反了：zero_point = -round(min / scale)，即代表 0.0 的那个码值）")
    assert abs(scale - want_scale) <= 1e-6 * want_scale and zp == want_zp, say(
        f"expected scale {want_scale:.6g} and zero_point {want_zp}, got {scale:.6g} and {zp}{hint}{note}",
        f"scale 应为 {want_scale:.6g}，zero_point 应为 {want_zp}，实际是 {scale:.6g} 和 {zp}{hint}{note}")
    want_q = asymmetric_reference(x, scale, zp)[0]
    hint = _codes_mistake(q.to(torch.int16) - zp, x, torch.tensor([scale]), None)
    bad = (q != want_q).nonzero().flatten().tolist()
    assert not bad, say(
        f"{len(bad)} code(s) differ from torch.quantize_per_tensor(x, scale, zero_point, torch.quint8), first at "
        f"{bad[0]}: x = {float(x[bad[0]]):.6g}, expected {int(want_q[bad[0]])}, got {int(q[bad[0]])}"
        f"{hint}{note}",
        f"有 {len(bad)} 个码值与 torch.quantize_per_tensor(x, scale, zero_point, torch.quint8) 不同，第一个在 "
        f"{bad[0]}：x = {float(x[bad[0]]):.6g}，应为 {int(want_q[bad[0]])}，实际是 {int(q[bad[0]])}{hint}{note}")


def test_asymmetric_matches_torch(entry):
    gen = torch.Generator().manual_seed(5)
    _check_asymmetric(entry, torch.randn(500, generator=gen) * 2 + 3)


def test_asymmetric_relu_output(entry):
    gen = torch.Generator().manual_seed(6)
    x = (torch.randn(300, generator=gen) * 2 + 1).relu()
    x[0] = 0.0
    _check_asymmetric(entry, x, say(". After a ReLU every value is >= 0: all 256 codes go to [0, max], zero_point is 0",
                                    "。ReLU 之后所有值都 >= 0：256 个码值全用在 [0, max] 上，zero_point 是 0"))
    x = torch.rand(200, generator=gen) * 3 + 0.5  # no zeros at all: 0 must still be representable
    _check_asymmetric(entry, x, say(". All values are in [0.5, 3.5], but the range still starts at 0: "
                                    "zero padding and ReLU zeros must map to an exact code",
                                    "。所有值都在 [0.5, 3.5]，但范围仍从 0 开始：补零和 ReLU 产生的 0 必须对应一个精确的码值"))


def test_asymmetric_ties_round_to_even(entry):
    x = torch.tensor([0.0, 0.125, 0.375, 0.625, 63.75, 10.0])  # scale = 63.75 / 255 = 0.25 exactly
    _check_asymmetric(entry, x, say(". scale is 0.25, so 0.125 / 0.25 = 0.5 is an exact tie: torch rounds it to the even 0",
                                    "。scale 是 0.25，0.125 / 0.25 = 0.5 恰好在中点：torch 把它舍入到偶数 0"))


def test_dequantize_matches_torch(entry):
    w = weights(7, (5, 12))
    want_q, scale, want = symmetric_reference(w, 0)
    got = entry.dequantize(want_q.clone(), scale.clone(), 0, 0)
    _same(got, want.float(), "per-channel (axis 0, zero_point 0)", "按通道（axis 0，zero_point 0）")
    gen = torch.Generator().manual_seed(8)
    x = torch.randn(40, generator=gen) + 1
    q, s, zp, want = asymmetric_reference(x)
    got = entry.dequantize(q.clone(), s, zp)
    wrapped = ((q.to(torch.int32) - zp) % 256).to(torch.float32) * s
    hint = say(" (subtract the zero-point before scaling: (q - zero_point) * scale)",
               "（先减 zero_point 再乘 scale：(q - zero_point) * scale）")
    if isinstance(got, torch.Tensor) and got.shape == wrapped.shape and torch.allclose(got.float(), wrapped, rtol=1e-6):
        hint = say(" (the subtraction wrapped around: q - zero_point on a uint8 tensor stays uint8, so -3 becomes 253; "
                   "convert q to float32 or int32 first)",
                   "（减法回绕了：uint8 张量减 zero_point 结果仍是 uint8，-3 变成 253；先把 q 转成 float32 或 int32）")
    _same(got, want.float(), f"per-tensor (zero_point {zp})", f"按张量（zero_point {zp}）", hint)


def _same(got, want, what_en, what_zh, hint=""):
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32 and got.shape == want.shape, say(
        f"dequantize {what_en} should return float32 of shape {tuple(want.shape)}, got "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}",
        f"dequantize {what_zh} 应返回形状 {tuple(want.shape)} 的 float32，实际是 "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}")
    bad = (~torch.isclose(got, want, rtol=1e-6, atol=1e-9)).nonzero().tolist()
    assert not bad, say(
        f"dequantize {what_en} differs from the quantized tensor's .dequantize() at {len(bad)} place(s), first {bad[0]}: "
        f"expected {float(want[tuple(bad[0])]):.6g}, got {float(got[tuple(bad[0])]):.6g}{hint}",
        f"dequantize {what_zh} 与量化张量的 .dequantize() 在 {len(bad)} 处不同，第一个在 {bad[0]}："
        f"应为 {float(want[tuple(bad[0])]):.6g}，实际是 {float(got[tuple(bad[0])]):.6g}{hint}")


def test_error_within_half_a_step(entry):
    w = weights(9, (12, 48))
    q, scale = _symmetric(entry, w, 0)
    back = entry.dequantize(q, scale, 0, 0)
    err = (back - w).abs().amax(dim=1)
    worst = float((err / scale).max())
    assert worst <= 0.5 + 1e-4, say(
        f"per-channel: the round-trip error reaches {worst:.3g} steps in some channel; rounding to nearest keeps it "
        "within half a step, scale / 2",
        f"按通道：往返误差在某个通道达到了 {worst:.3g} 个步长；就近舍入应让它不超过半步，即 scale / 2")
    gen = torch.Generator().manual_seed(10)
    x = torch.randn(400, generator=gen) * 3 + 1
    q, s, zp = _asymmetric(entry, x)
    back = entry.dequantize(q, s, zp)
    worst = float((back - x).abs().max() / s)
    assert worst <= 0.5 + 1e-4, say(
        f"per-tensor asymmetric: the round-trip error reaches {worst:.3g} steps; it should stay within scale / 2",
        f"按张量非对称：往返误差达到了 {worst:.3g} 个步长；应不超过 scale / 2")
