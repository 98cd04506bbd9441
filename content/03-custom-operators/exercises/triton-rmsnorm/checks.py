"""The torch reference for the RMSNorm kernel, and what a wrong answer usually means."""

import torch

from quiz.grader.say import say


def _rms(x, weight, eps, count=None):
    xd = x.double()
    count = count or x.shape[-1]
    return xd * torch.rsqrt(xd.pow(2).sum(dim=-1, keepdim=True) / count + eps) * weight.double()


def reference(x, weight, eps):
    return _rms(x, weight, eps).to(x.dtype)


def _close(got, want):
    return got.shape == want.shape and torch.allclose(got.double(), want, rtol=1e-4, atol=1e-5)


def hint_output(check, args, got):
    x, weight, eps = args
    out = got[0].double() if got else None
    cols = x.shape[-1]
    block = 1 << (cols - 1).bit_length()
    if out is None:
        return ""
    if _close(out, _rms(x, torch.ones_like(weight), eps)):
        return say("This is the normalised row without the weight: multiply by weight, read at w_ptr + cols.",
                   "这是没乘 weight 的归一化结果：还要乘以 weight，在 w_ptr + cols 处读取。")
    if _close(out, _rms(x, weight, 0.0)):
        return say("This is RMSNorm without eps: it goes inside the square root, sqrt(mean(x*x) + eps).",
                   "这是没加 eps 的 RMSNorm：eps 应该放在平方根里面，即 sqrt(mean(x*x) + eps)。")
    if block != cols and _close(out, _rms(x, weight, eps, block)):
        return say(f"The mean was taken over the block ({block}), not the {cols} real columns: divide by n_cols.",
                   f"均值是按整个 block（{block}）算的，而不是按实际的 {cols} 列：应除以 n_cols。")
    return say("Check the row offset (row * row_stride), that padding lanes load as 0, and that the weight is "
               "read by column index.",
               "请检查行偏移（row * row_stride）、padding lane 是否 load 成 0，以及 weight 是否按列下标读取。")
