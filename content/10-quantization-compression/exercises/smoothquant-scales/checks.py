"""A LayerNorm feeding three linears, with outlier channels; SmoothQuant's scales as the reference; the tests."""

import torch
from torch import nn

from quiz.grader.say import say

_layer_norm = torch.nn.functional.layer_norm  # taken when the checks load, before any learner code runs
_linear = torch.nn.functional.linear
HIDDEN = 64
OUTLIERS = (5, 17, 40)


def block(seed):
    """(ln, [q, k, v], calibration input, test input), float64; the LayerNorm amplifies three channels."""
    gen = torch.Generator().manual_seed(seed)
    ln = nn.LayerNorm(HIDDEN).double()
    fcs = [nn.Linear(HIDDEN, HIDDEN).double() for _ in range(3)]  # q, k and v, as in OPT
    with torch.no_grad():
        ln.weight.copy_(1 + 0.1 * torch.randn(HIDDEN, generator=gen, dtype=torch.float64))
        ln.weight[list(OUTLIERS)] = 40.0
        ln.bias.copy_(0.1 * torch.randn(HIDDEN, generator=gen, dtype=torch.float64))
        for fc in fcs:
            fc.weight.copy_(torch.randn(fc.weight.shape, generator=gen, dtype=torch.float64) * HIDDEN ** -0.5)
            fc.bias.copy_(0.1 * torch.randn(fc.bias.shape, generator=gen, dtype=torch.float64))
    calib = torch.randn(256, HIDDEN, generator=gen, dtype=torch.float64)
    test = torch.randn(64, HIDDEN, generator=gen, dtype=torch.float64)
    return ln, fcs, calib, test


def act_scales_of(ln, x):
    with torch.no_grad():
        return ln(x).abs().amax(dim=0)


def reference_scales(fcs, act_scales, alpha):
    w = torch.stack([fc.weight.detach().abs().amax(dim=0) for fc in fcs]).amax(dim=0).clamp(min=1e-5)
    return (act_scales.pow(alpha) / w.pow(1 - alpha)).clamp(min=1e-5)


def _run(entry, seed, alpha):
    ln, fcs, calib, test = block(seed)
    act = act_scales_of(ln, calib)
    before = {"ln_w": ln.weight.detach().clone(), "ln_b": ln.bias.detach().clone(),
              "w": [fc.weight.detach().clone() for fc in fcs], "b": [fc.bias.detach().clone() for fc in fcs],
              "y": [_linear(_layer_norm(test, (HIDDEN,), ln.weight, ln.bias, ln.eps), fc.weight, fc.bias).detach()
                    for fc in fcs]}
    want_s = reference_scales(fcs, act, alpha)
    s = entry(ln, fcs, act.clone(), alpha)
    return ln, fcs, act, test, before, want_s, s


def _own(s, want_s):
    """The learner's own s when it has the right form, so each check judges one thing."""
    return s if isinstance(s, torch.Tensor) and s.shape == want_s.shape else want_s


def _scales_mistake(s, before, act, alpha):
    w_cols = torch.stack([w.abs().amax(dim=0) for w in before["w"]]).amax(dim=0)

    def close(t):
        return s.shape == t.shape and torch.allclose(s, t, rtol=1e-9)

    if close(act.pow(1 - alpha) / w_cols.pow(alpha)):
        return say(" (alpha and 1 - alpha are swapped: s = act_scales^alpha / weight_scales^(1 - alpha))",
                   "（alpha 与 1 - alpha 颠倒了：s = act_scales^alpha / weight_scales^(1 - alpha)）")
    if close(act.pow(alpha) / before["w"][0].abs().amax(dim=0).pow(1 - alpha)):
        return say(" (weight_scales came from the first linear only: every linear fed by this LayerNorm shares s, "
                   "so take the max over all of them)",
                   "（weight_scales 只取自第一个线性层：这个 LayerNorm 后面的所有线性层共用同一个 s，所以要在它们之间取最大值）")
    if close(act.pow(alpha) * w_cols.pow(1 - alpha)):
        return say(" (multiplied by weight_scales^(1 - alpha); divide by it)", "（乘了 weight_scales^(1 - alpha)；应除以它）")
    return ""


def _check_scales(s, want_s, before, act, alpha):
    assert isinstance(s, torch.Tensor) and tuple(s.shape) == (HIDDEN,), say(
        f"smooth_ln_fcs should return the smoothing factors s, a tensor of shape ({HIDDEN},), one per input channel; "
        f"got {type(s).__name__} {tuple(getattr(s, 'shape', ()))}",
        f"smooth_ln_fcs 应返回平滑因子 s，形状 ({HIDDEN},) 的 tensor，每个输入通道一个；"
        f"实际是 {type(s).__name__} {tuple(getattr(s, 'shape', ()))}")
    assert torch.allclose(s, want_s, rtol=1e-9), say(
        f"alpha = {alpha}: s should be act_scales^alpha / max_fcs(max |W[:, j]|)^(1 - alpha), e.g. "
        f"{[round(v, 4) for v in want_s[:3].tolist()]}, got {[round(v, 4) for v in s[:3].tolist()]}"
        f"{_scales_mistake(s, before, act, alpha)}",
        f"alpha = {alpha}：s 应为 act_scales^alpha / max_fcs(max |W[:, j]|)^(1 - alpha)，例如 "
        f"{[round(v, 4) for v in want_s[:3].tolist()]}，实际是 {[round(v, 4) for v in s[:3].tolist()]}"
        f"{_scales_mistake(s, before, act, alpha)}")


def test_scales(entry):
    for alpha in (0.5, 0.8):
        ln, fcs, act, test, before, want_s, s = _run(entry, 1, alpha)
        _check_scales(s, want_s, before, act, alpha)


def test_outputs_unchanged(entry):
    ln, fcs, act, test, before, want_s, s = _run(entry, 2, 0.5)
    with torch.no_grad():
        h = _layer_norm(test, (HIDDEN,), ln.weight, ln.bias, ln.eps)
        for i, fc in enumerate(fcs):
            err = float((_linear(h, fc.weight, fc.bias) - before["y"][i]).abs().max())
            assert err <= 1e-9, say(
                f"linear {i} (out={fc.out_features}): fc(ln(x)) changed by up to {err:.3g} after smoothing; dividing "
                "the LayerNorm's output by s and multiplying the weight's input columns by s must cancel exactly",
                f"第 {i} 个线性层（out={fc.out_features}）：平滑之后 fc(ln(x)) 最多变化了 {err:.3g}；LayerNorm 的输出除以 s、"
                "权重的输入列乘以 s，两者必须正好抵消")


def test_layernorm_weight_and_bias_divided(entry):
    ln, fcs, act, test, before, want_s, s = _run(entry, 3, 0.5)
    want_s = _own(s, want_s)
    with torch.no_grad():
        assert torch.allclose(ln.weight, before["ln_w"] / want_s, rtol=1e-9), say(
            "the LayerNorm weight should be divided by s (ln.weight / s): its output is the activation being smoothed",
            "LayerNorm 的 weight 应除以 s（ln.weight / s）：它的输出就是被平滑的激活")
        if torch.equal(ln.bias, before["ln_b"]):
            raise AssertionError(say(
                "the LayerNorm bias was left as it was: LayerNorm's output is weight * x_hat + bias, so both must be "
                "divided by s, or every channel's output keeps bias where it should have bias / s",
                "LayerNorm 的 bias 没有改：LayerNorm 的输出是 weight * x_hat + bias，两者都要除以 s，"
                "否则每个通道的输出仍带着 bias，而本该是 bias / s"))
        assert torch.allclose(ln.bias, before["ln_b"] / want_s, rtol=1e-9), say(
            "the LayerNorm bias should be divided by s (ln.bias / s)", "LayerNorm 的 bias 应除以 s（ln.bias / s）")


def test_weight_columns_scaled(entry):
    ln, fcs, act, test, before, want_s, s = _run(entry, 4, 0.5)
    want_s = _own(s, want_s)
    with torch.no_grad():
        for i, fc in enumerate(fcs):
            w0 = before["w"][i]
            if torch.allclose(fc.weight, w0 * want_s.view(1, -1), rtol=1e-9):
                assert torch.equal(fc.bias, before["b"][i]), say(
                    f"linear {i}: its bias must stay as it was: it is added after the matmul, where s has cancelled",
                    f"第 {i} 个线性层：它的 bias 必须保持不变：bias 在矩阵乘之后才加，那时 s 已经抵消了")
                continue
            hint = ""
            if torch.allclose(fc.weight, w0 * want_s.view(-1, 1), rtol=1e-9):
                hint = say(" (the rows were scaled; nn.Linear's weight is (out, in), so input channel j is column j: "
                           "weight * s.view(1, -1))",
                           "（缩放的是行；nn.Linear 的 weight 形状是 (out, in)，输入通道 j 是第 j 列：weight * s.view(1, -1)）")
            elif torch.allclose(fc.weight, w0 / want_s.view(1, -1), rtol=1e-9):
                hint = say(" (the weight was divided by s; the activation is divided and the weight multiplied)",
                           "（weight 除以了 s；应该是激活除以 s、weight 乘以 s）")
            elif torch.equal(fc.weight, w0):
                hint = say(" (this linear's weight was not changed; every linear after the LayerNorm needs it)",
                           "（这个线性层的 weight 没有变；LayerNorm 后面的每个线性层都要乘）")
            raise AssertionError(say(
                f"linear {i} (out={fc.out_features}): its weight should be weight * s along the input dim{hint}",
                f"第 {i} 个线性层（out={fc.out_features}）：weight 应沿输入维度乘以 s{hint}"))


def _w8a8_error(h, fc):
    """Relative error of per-tensor int8 activations times per-output-channel int8 weights."""
    sx = h.abs().max() / 127
    sw = fc.weight.abs().amax(dim=1, keepdim=True) / 127
    hq = torch.round(h / sx).clamp(-127, 127) * sx
    wq = torch.round(fc.weight / sw).clamp(-127, 127) * sw
    exact = _linear(h, fc.weight, fc.bias)
    return float((_linear(hq, wq, fc.bias) - exact).norm() / exact.norm())


def test_activation_range_shrinks(entry):
    ln0, fcs0, calib, test = block(5)
    with torch.no_grad():
        h0 = ln0(test)
        err0 = max(_w8a8_error(h0, fc) for fc in fcs0)
    ln, fcs, act, test, before, want_s, s = _run(entry, 5, 0.5)
    with torch.no_grad():
        h = _layer_norm(test, (HIDDEN,), ln.weight, ln.bias, ln.eps)
        spread0 = float(h0.abs().amax(dim=0).max() / h0.abs().amax(dim=0).median())
        spread = float(h.abs().amax(dim=0).max() / h.abs().amax(dim=0).median())
        assert spread < spread0 / 3, say(
            f"after smoothing, the largest channel range is {spread:.1f}x the median channel's (before: {spread0:.1f}x); "
            "dividing by s = act^0.5 / w^0.5 should flatten the outlier channels",
            f"平滑之后，最大通道的范围是中位通道的 {spread:.1f} 倍（之前是 {spread0:.1f} 倍）；"
            "除以 s = act^0.5 / w^0.5 应把离群通道压平")
        err = max(_w8a8_error(h, fc) for fc in fcs)
        assert err < err0 / 2, say(
            f"simulated W8A8 (per-tensor int8 activations, per-channel int8 weights) has relative error {err:.4f} "
            f"after smoothing and {err0:.4f} before; smoothing should at least halve it",
            f"模拟 W8A8（激活按张量 int8、权重按通道 int8）平滑后的相对误差是 {err:.4f}，之前是 {err0:.4f}；"
            "平滑至少应让它减半")
