"""The torch reference for the int8 row-wise quantization kernel, and what a wrong answer usually means."""

import torch


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
        return "A row of zeros has amax 0, so amax / 127 is 0 and x / scale is NaN: use scale 1 for such a row."
    nz = amax > 0
    if torch.allclose(scale[nz], x.amax(dim=1)[nz] / 127.0):
        return "The scale must come from the largest |x| of the row (tl.abs before tl.max), or negative values clip."
    if torch.allclose(scale[nz], amax[nz] / 128.0):
        return "Symmetric int8 uses [-127, 127]: scale = amax / 127."
    want = torch.floor(x / scale[:, None] + 0.5).clamp(-127, 127)
    trunc = (x / scale[:, None]).trunc().clamp(-127, 127)
    if torch.equal(q.double(), trunc.double()) and not torch.equal(q.double(), want.double()):
        return "Casting to an integer truncates toward zero: round first, floor(x / scale + 0.5)."
    return "Check the row offsets, and that q is clamped to [-127, 127] before it is stored as int8."
