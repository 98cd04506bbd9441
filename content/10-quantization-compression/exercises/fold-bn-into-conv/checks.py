"""Conv + BatchNorm pairs with seeded statistics, torch.nn.utils.fusion as the reference, and the tests."""

import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_weights

from quiz.grader.say import say

_fuse_weights = fuse_conv_bn_weights  # taken when the checks load, before any learner code runs
_conv2d = torch.nn.functional.conv2d


def pair(seed, cin=3, cout=8, k=3, bias=True, eps=1e-5, affine=True, **conv_kw):
    """A float64 conv and an eval-mode BatchNorm2d whose running statistics look trained."""
    gen = torch.Generator().manual_seed(seed)
    conv = nn.Conv2d(cin, cout, k, bias=bias, **conv_kw).double()
    bn = nn.BatchNorm2d(cout, eps=eps, affine=affine).double()
    with torch.no_grad():
        conv.weight.copy_(torch.randn(conv.weight.shape, generator=gen, dtype=torch.float64) * 0.3)
        if bias:
            conv.bias.copy_(torch.randn(cout, generator=gen, dtype=torch.float64))
        bn.running_mean.copy_(torch.randn(cout, generator=gen, dtype=torch.float64))
        bn.running_var.copy_(torch.rand(cout, generator=gen, dtype=torch.float64) * 2 + 0.05)
        if affine:
            bn.weight.copy_(torch.rand(cout, generator=gen, dtype=torch.float64) + 0.5)
            bn.bias.copy_(torch.randn(cout, generator=gen, dtype=torch.float64))
    bn.eval()
    x = torch.randn(2, cin, 9, 9, generator=gen, dtype=torch.float64)
    return conv, bn, x


def reference(conv, bn):
    return _fuse_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)


def _mistake(w, b, conv, bn):
    """Names the usual wrong fold when the learner's (w, b) equals it."""
    gamma = bn.weight if bn.weight is not None else torch.ones_like(bn.running_var)
    beta = bn.bias if bn.bias is not None else torch.zeros_like(bn.running_var)
    cb = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
    shape = [-1] + [1] * (conv.weight.dim() - 1)

    def fold(std):
        s = gamma / std
        return conv.weight * s.view(shape), (cb - bn.running_mean) * s + beta, s

    def same(a, c):
        return a is not None and a.shape == c.shape and torch.allclose(a, c, rtol=1e-9, atol=1e-12)

    ww, bb, s = fold(torch.sqrt(bn.running_var))
    if same(w, ww) and bn.eps:
        return say(" (eps is missing: divide by sqrt(running_var + eps))", "（漏了 eps：应除以 sqrt(running_var + eps)）")
    ww, _, _ = fold(torch.sqrt(bn.running_var + 1e-5))
    if bn.eps != 1e-5 and same(w, ww):
        return say(f" (eps 1e-5 was hard-coded; use bn.eps, here {bn.eps})", f"（把 eps 写死成了 1e-5；应使用 bn.eps，这里是 {bn.eps}）")
    ww, _, _ = fold(bn.running_var + bn.eps)
    if same(w, ww):
        return say(" (divided by the variance; divide by the standard deviation sqrt(running_var + eps))",
                   "（除以了方差；应除以标准差 sqrt(running_var + eps)）")
    ww, bb, s = fold(torch.sqrt(bn.running_var + bn.eps))
    if same(w, ww) and same(b, cb * s - bn.running_mean + beta):
        return say(" (running_mean was not scaled: it is subtracted before the division, so b' = (b - running_mean) * s + beta)",
                   "（running_mean 没有乘 s：它在除以标准差之前就被减掉，所以 b' = (b - running_mean) * s + beta）")
    if same(w, ww) and same(b, cb - bn.running_mean + beta):
        return say(" (the bias was not scaled: b' = (b - running_mean) * gamma / std + beta)",
                   "（bias 没有乘缩放系数：b' = (b - running_mean) * gamma / std + beta）")
    if same(w, ww) and conv.bias is not None and same(b, -bn.running_mean * s + beta):
        return say(" (the conv's own bias was dropped: b' = (b - running_mean) * gamma / std + beta)",
                   "（丢掉了卷积自己的 bias：b' = (b - running_mean) * gamma / std + beta）")
    if same(w, ww) and same(b, cb * s + beta):
        return say(" (running_mean was not subtracted: b' = (b - running_mean) * gamma / std + beta)",
                   "（没有减去 running_mean：b' = (b - running_mean) * gamma / std + beta）")
    return ""


def _check(entry, conv, bn, x, what_en, what_zh):
    params = [("conv", n, p) for n, p in conv.named_parameters()] + [("bn", n, p) for n, p in bn.named_parameters()]
    keep = [p.detach().clone() for _, _, p in params]
    fused = entry(conv, bn)
    with torch.no_grad():
        want_y = bn(conv(x))
    for (owner, name, p), before in zip(params, keep):
        assert torch.equal(p.detach(), before), say(
            f"{what_en}: the {owner}'s {name} was changed in place; return a new conv and leave the originals alone "
            "(as torch.nn.utils.fusion.fuse_conv_bn_eval does)",
            f"{what_zh}：{'卷积' if owner == 'conv' else 'bn'} 的 {name} 被原地修改了；应返回一个新的卷积，"
            "不动原来的模块（torch.nn.utils.fusion.fuse_conv_bn_eval 也是这样）")
    w, b = fused.weight, fused.bias
    w = w.detach() if isinstance(w, torch.Tensor) else w
    b = b.detach() if isinstance(b, torch.Tensor) else b
    want_w, want_b = reference(conv, bn)
    assert isinstance(w, torch.Tensor) and w.shape == want_w.shape, say(
        f"{what_en}: the fused conv's weight should have the conv's shape {tuple(want_w.shape)}, got "
        f"{tuple(getattr(w, 'shape', ()))}",
        f"{what_zh}：融合后卷积的 weight 形状应与原卷积相同 {tuple(want_w.shape)}，实际是 {tuple(getattr(w, 'shape', ()))}")
    assert isinstance(b, torch.Tensor) and b.shape == want_b.shape, say(
        f"{what_en}: the fused conv needs a bias of shape {tuple(want_b.shape)} (BatchNorm's shift lives there, "
        f"even when the conv had none), got {None if b is None else tuple(getattr(b, 'shape', ()))}",
        f"{what_zh}：融合后的卷积需要形状为 {tuple(want_b.shape)} 的 bias（BatchNorm 的平移量就放在这里，"
        f"即使原卷积没有 bias），实际是 {None if b is None else tuple(getattr(b, 'shape', ()))}")
    hint = _mistake(w, b, conv, bn)
    assert torch.allclose(w, want_w, rtol=1e-9, atol=1e-12), say(
        f"{what_en}: the fused weight should be W * gamma / sqrt(running_var + eps) per output channel{hint}",
        f"{what_zh}：融合后的 weight 应为 W * gamma / sqrt(running_var + eps)，按输出通道{hint}")
    assert torch.allclose(b, want_b, rtol=1e-9, atol=1e-12), say(
        f"{what_en}: the fused bias should be (b - running_mean) * gamma / sqrt(running_var + eps) + beta, e.g. "
        f"{want_b[:3].tolist()}, got {b[:3].tolist()}{hint}",
        f"{what_zh}：融合后的 bias 应为 (b - running_mean) * gamma / sqrt(running_var + eps) + beta，例如 "
        f"{want_b[:3].tolist()}，实际是 {b[:3].tolist()}{hint}")
    y = fused(x)
    y = y.detach() if isinstance(y, torch.Tensor) else y
    assert isinstance(y, torch.Tensor) and y.shape == want_y.shape, say(
        f"{what_en}: fused(x) should have the shape of bn(conv(x)), {tuple(want_y.shape)}, got "
        f"{tuple(getattr(y, 'shape', ()))}: keep the conv's stride, padding, dilation and groups",
        f"{what_zh}：fused(x) 的形状应与 bn(conv(x)) 相同，即 {tuple(want_y.shape)}，实际是 "
        f"{tuple(getattr(y, 'shape', ()))}：要保留卷积的 stride、padding、dilation 和 groups")
    err = float((y - want_y).abs().max())
    assert err <= 1e-9, say(
        f"{what_en}: fused(x) differs from bn(conv(x)) in eval mode by up to {err:.3g}",
        f"{what_zh}：fused(x) 与 eval 模式下的 bn(conv(x)) 最多相差 {err:.3g}")


def test_conv_with_bias(entry):
    _check(entry, *pair(1), "conv 3->8, k=3, with bias", "卷积 3->8，k=3，带 bias")


def test_conv_without_bias(entry):
    _check(entry, *pair(2, bias=False, padding=1), "conv without bias (as before every BatchNorm)",
           "不带 bias 的卷积（BatchNorm 前面通常如此）")


def test_bn_eps(entry):
    _check(entry, *pair(3, eps=0.1), "BatchNorm2d(eps=0.1)", "BatchNorm2d(eps=0.1)")


def test_bn_without_affine(entry):
    _check(entry, *pair(4, affine=False), "BatchNorm2d(affine=False): gamma = 1, beta = 0",
           "BatchNorm2d(affine=False)：gamma = 1，beta = 0")


def test_depthwise_strided(entry):
    _check(entry, *pair(5, cin=6, cout=6, groups=6, stride=2, padding=2, dilation=2),
           "depthwise conv (groups=6, stride 2, dilation 2)", "depthwise 卷积（groups=6，stride 2，dilation 2）")
