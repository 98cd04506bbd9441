import torch

FP8_MAX = torch.finfo(torch.float8_e4m3fn).max  # 448.0


class FP8:
    """Per-tensor amax scaling into float8_e4m3fn and back."""

    @staticmethod
    def quantize(x, amax=None):
        """Returns (q: float8_e4m3fn like x, scale: one-element float32 tensor), scale = amax / 448."""
        amax = x.abs().max() if amax is None else torch.as_tensor(amax, dtype=torch.float32)
        scale = torch.where(amax > 0, amax / FP8_MAX, torch.ones_like(amax))
        q = (x / scale).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn).to(torch.float32)
        return q, scale

    @staticmethod
    def dequantize(q, scale):
        """q.to(float32) * scale."""
        return q.to(torch.float32) * scale
