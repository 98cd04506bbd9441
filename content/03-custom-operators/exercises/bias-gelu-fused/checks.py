"""The unfused reference, and focused checks on the bias reduction and on what forward saves."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say


def unfused(x, bias):
    """What the fused op replaces: a separate bias add and an exact (erf) GELU."""
    return F.gelu(x + bias)


def test_bias_grad_sums_leading_dims(entry):
    # grad_output of ones on a (2, 3, 4) input: grad_bias[j] = sum of gelu'(u) over the 6 rows of column j
    gen = torch.Generator().manual_seed(7)
    x = (torch.rand(2, 3, 4, generator=gen, dtype=torch.float64) * 4 - 2).requires_grad_(True)
    bias = torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
    out = entry.apply(x, bias)
    gx, gb = torch.autograd.grad(out, (x, bias), torch.ones_like(out))
    xr, br = x.detach().requires_grad_(True), bias.detach().requires_grad_(True)
    ex, eb = torch.autograd.grad(unfused(xr, br).sum(), (xr, br))
    assert tuple(gb.shape) == (4,), say(f"grad_bias should have the bias's shape (4,), got {tuple(gb.shape)}",
                                        f"grad_bias 应与 bias 同形状 (4,)，实际是 {tuple(gb.shape)}")
    err = float((gx - ex).abs().max())
    assert torch.allclose(gx, ex, atol=1e-10), say(
        f"grad_x differs from autograd through F.gelu(x + bias): max error {err:.3g}",
        f"grad_x 与 autograd 经 F.gelu(x + bias) 算出的结果不一致：最大误差 {err:.3g}",
    )
    want, got = [round(v, 6) for v in eb.tolist()], [round(v, 6) for v in gb.tolist()]
    assert torch.allclose(gb, eb, atol=1e-10), say(
        f"grad_bias should be grad_u summed over both leading dims (2 x 3 = 6 rows per column): "
        f"expected {want}, got {got}",
        f"grad_bias 应该是 grad_u 在前两个维度上的和（每列 2 x 3 = 6 行）：应为 {want}，实际是 {got}",
    )


def saves_inputs_only(held, args):
    """Judged on what the backward node holds: every saved tensor must be x or bias itself."""
    extra = [(h["where"], h["shape"]) for h in held if h["alias_of"] is None]
    assert not extra, say(
        f"forward keeps {len(extra)} tensor(s) besides x and bias, {extra}: a fused op keeps only its "
        "inputs and recomputes u = x + bias in backward (one more add is free; an extra (N, H) activation is not)",
        f"除了 x 和 bias，forward 还保存了 {len(extra)} 个 tensor，{extra}：融合算子只保存输入，"
        "在 backward 里重算 u = x + bias（多一次加法几乎没有代价，多存一个 (N, H) 的激活却有）",
    )


def hint_output(check, args, got):
    """Name the tanh approximation when the output matches it instead of the exact erf GELU."""
    x, bias = args[0].detach(), args[1].detach()
    tanh = F.gelu(x + bias, approximate="tanh")
    if got.shape == tanh.shape and torch.allclose(got.to(tanh.dtype), tanh, atol=1e-9, rtol=1e-7):
        return say("Your output matches the tanh approximation of GELU; the exercise asks for the exact GELU, "
                   "0.5 * u * (1 + erf(u / sqrt(2))), as F.gelu computes by default.",
                   "你的输出与 GELU 的 tanh 近似一致；本题要求的是精确 GELU，"
                   "即 0.5 * u * (1 + erf(u / sqrt(2)))，也就是 F.gelu 默认的算法。")
    return ""
