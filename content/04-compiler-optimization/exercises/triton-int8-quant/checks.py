"""The torch reference for the int8 row-wise quantization kernel, and what a wrong answer usually means."""

import torch

from quiz.grader.say import say


def reference(x):
    amax = x.abs().amax(dim=1)
    scale = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
    q = torch.floor(x / scale[:, None] + 0.5).clamp(-127, 127)
    return q.to(torch.int8), scale, q * scale[:, None]


def hint_output(check, args, got):
    x = args[0]
    if len(got) != 3:
        return ""
    q, scale, _ = got
    amax = x.abs().amax(dim=1)
    if not torch.isfinite(scale).all() or (scale == 0).any():
        return say("A row of zeros has amax 0, so amax / 127 is 0 and x / scale is NaN: use scale 1 for such a row.",
                   "全零的行 amax 为 0，于是 amax / 127 是 0，x / scale 会变成 NaN：这样的行请用 scale 1。")
    nz = amax > 0
    if torch.allclose(scale[nz], x.amax(dim=1)[nz] / 127.0):
        return say("The scale must come from the largest |x| of the row (tl.abs before tl.max), or negative values clip.",
                   "scale 必须取自该行最大的 |x|（先 tl.abs 再 tl.max），否则负值会被截断。")
    if torch.allclose(scale[nz], amax[nz] / 128.0):
        return say("Symmetric int8 uses [-127, 127]: scale = amax / 127.",
                   "对称 int8 的范围是 [-127, 127]：scale = amax / 127。")
    want = torch.floor(x / scale[:, None] + 0.5).clamp(-127, 127)
    trunc = (x / scale[:, None]).trunc().clamp(-127, 127)
    if torch.equal(q.double(), trunc.double()) and not torch.equal(q.double(), want.double()):
        return say("Casting to an integer truncates toward zero: round first, floor(x / scale + 0.5).",
                   "转换成整数会向零截断：要先四舍五入，即 floor(x / scale + 0.5)。")
    return say("Check the row offsets, and that q is clamped to [-127, 127] before it is stored as int8.",
               "请检查行偏移，以及 q 在作为 int8 store 之前是否被 clamp 到 [-127, 127]。")
