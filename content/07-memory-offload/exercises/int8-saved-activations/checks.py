"""The quantised reference, what forward saves, and the error bound of the int8 weight gradient."""

import torch

from quiz.grader.say import say


def quantise(x):
    scale = x.abs().amax(dim=-1, keepdim=True) / 127
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    q = torch.round(x / scale).clamp(-127, 127)
    return q * scale, scale


def quantized_reference(x, weight):
    """Forward x @ weight.T exactly; gradient for weight from the dequantised x, gradient for x exact."""
    x_hat, _ = quantise(x.detach())
    w0 = weight.detach()
    return x @ w0.T + (x_hat @ weight.T - x_hat @ w0.T)


def keeps_int8_not_x(held, args):
    """Judged on everything the backward node holds, saved tensors and ctx attributes alike."""
    x = args[0]
    shapes = [(h["where"], h["dtype"], tuple(h["shape"])) for h in held]
    floats = ("float64", "float32", "float16", "bfloat16")
    big_float = [s for s, h in zip(shapes, held) if h["dtype"] in floats and tuple(h["shape"]) == tuple(x.shape)]
    assert not big_float, say(
        f"backward keeps a floating-point tensor of x's shape {tuple(x.shape)} ({big_float[0][0]}; everything kept: "
        f"{shapes}): that keeps the activation at full size; keep the int8 codes and the per-row scales, and "
        "dequantise in backward",
        f"backward 保存了一个与 x 同形状 {tuple(x.shape)} 的浮点 tensor（{big_float[0][0]}；保存的全部内容："
        f"{shapes}）：这等于把激活按原大小存了下来；应保存 int8 码值和每行的 scale，"
        "在 backward 里再反量化",
    )
    assert any(h["dtype"] == "int8" and tuple(h["shape"]) == tuple(x.shape) for h in held), say(
        f"no int8 tensor of x's shape {tuple(x.shape)} is kept (kept: {shapes}); store q = round(x / scale) as torch.int8",
        f"没有保存与 x 同形状 {tuple(x.shape)} 的 int8 tensor（保存的是：{shapes}）；应把 q = round(x / scale) 存成 torch.int8",
    )
    act_bytes = sum(h["nbytes"] for h in held if h["alias_of"] != 1)
    limit = x.numel() + 8 * x.shape[0]
    assert act_bytes <= limit, say(
        f"backward keeps {act_bytes} bytes besides the weight; int8 codes plus one scale per row need at most "
        f"{limit} (x itself in float32 is {x.numel() * 4})",
        f"除了 weight，backward 还保存了 {act_bytes} 字节；int8 码值加上每行一个 scale 最多只需要 "
        f"{limit} 字节（x 本身用 float32 存是 {x.numel() * 4} 字节）",
    )


def test_weight_grad_error_bound(entry):
    gen = torch.Generator().manual_seed(1)
    x = torch.rand(24, 40, generator=gen, dtype=torch.float64) * 2 - 1
    x[3] *= 500.0  # one row of outliers: a single scale for the whole tensor would blur every other row
    x[7] *= 1e-3
    x.requires_grad_(True)
    w = (torch.rand(12, 40, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_(True)
    g = torch.rand(24, 12, generator=gen, dtype=torch.float64) * 2 - 1
    y = entry.apply(x, w)
    gx, gw = torch.autograd.grad(y, [x, w], g)
    exact_gw = g.T @ x.detach()
    assert torch.allclose(gx, g @ w.detach(), atol=1e-10), say("the gradient for x should be exact (grad_output @ weight)",
                                                                     "x 的梯度应是精确的（grad_output @ weight）")
    # rounding moves each element of row n by at most scale_n / 2, so
    # |gw - exact_gw|[o, i] <= sum_n |g[n, o]| * scale_n / 2
    scale = x.detach().abs().amax(dim=-1, keepdim=True) / 127
    bound = g.abs().T @ (scale / 2).expand_as(x)
    excess = (gw - exact_gw).abs() - bound
    worst = float(excess.max())
    assert worst <= 1e-9, say(
        f"the weight gradient is off by more than int8 rounding allows: the error exceeds the bound "
        f"sum_n |g[n, o]| * scale_n / 2 by up to {worst:.3g}; use one scale per row, amax(|x_row|) / 127, and round to nearest",
        f"weight 梯度的误差超出了 int8 舍入所允许的范围：误差比上界 "
        f"sum_n |g[n, o]| * scale_n / 2 最多高出 {worst:.3g}；每行用一个 scale，即 amax(|x_row|) / 127，并四舍五入到最近的整数",
    )
    rel = float((gw - exact_gw).norm() / exact_gw.norm())
    assert rel < 0.01, say(f"relative error of the weight gradient is {rel:.3g}; with per-row int8 it should stay below 1%",
                           f"weight 梯度的相对误差是 {rel:.3g}；按行 int8 量化时应低于 1%")
