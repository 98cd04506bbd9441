import torch


class FP8:
    """Per-tensor amax scaling into float8_e4m3fn and back."""

    @staticmethod
    def quantize(x, amax=None):
        """Returns (q: float8_e4m3fn like x, scale: one-element float32 tensor), scale = amax / 448."""
        raise NotImplementedError("FP8.quantize")

    @staticmethod
    def dequantize(q, scale):
        """q.to(float32) * scale."""
        raise NotImplementedError("FP8.dequantize")
