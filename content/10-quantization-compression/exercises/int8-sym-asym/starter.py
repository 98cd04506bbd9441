import torch


class Int8:
    """Per-channel symmetric int8 (weights) and per-tensor asymmetric uint8 (activations)."""

    @staticmethod
    def quantize_per_channel_symmetric(w, axis=0):
        """Returns (q: int8 like w, scale: float32 (C,)); scale = max(amax / 127, eps) per channel along axis."""
        raise NotImplementedError("quantize_per_channel_symmetric")

    @staticmethod
    def quantize_per_tensor_asymmetric(x):
        """Returns (q: uint8 like x, scale: float, zero_point: int), the range [min(x, 0), max(x, 0)] over 0..255."""
        raise NotImplementedError("quantize_per_tensor_asymmetric")

    @staticmethod
    def dequantize(q, scale, zero_point=0, axis=None):
        """(q - zero_point) * scale as float32; with axis, scale is per channel along axis."""
        raise NotImplementedError("dequantize")
