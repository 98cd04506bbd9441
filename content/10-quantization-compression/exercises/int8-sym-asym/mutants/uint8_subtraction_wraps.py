import torch

EPS = torch.finfo(torch.float32).eps


def _channel_shape(t, axis):
    return [-1 if d == axis else 1 for d in range(t.dim())]


class Int8:
    """Per-channel symmetric int8 (weights) and per-tensor asymmetric uint8 (activations)."""

    @staticmethod
    def quantize_per_channel_symmetric(w, axis=0):
        """Returns (q: int8 like w, scale: float32 (C,)); scale = max(amax / 127, eps) per channel along axis."""
        dims = [d for d in range(w.dim()) if d != axis]
        amax = w.abs().amax(dim=dims)
        scale = (amax / 127).clamp(min=EPS)
        q = torch.round(w / scale.view(_channel_shape(w, axis))).clamp(-127, 127).to(torch.int8)
        return q, scale

    @staticmethod
    def quantize_per_tensor_asymmetric(x):
        """Returns (q: uint8 like x, scale: float, zero_point: int), the range [min(x, 0), max(x, 0)] over 0..255."""
        lo, hi = x.min().clamp(max=0), x.max().clamp(min=0)
        scale = ((hi - lo) / 255).clamp(min=EPS)
        zero_point = (-torch.round(lo / scale)).clamp(0, 255)
        q = (torch.round(x / scale) + zero_point).clamp(0, 255).to(torch.uint8)
        return q, float(scale), int(zero_point)

    @staticmethod
    def dequantize(q, scale, zero_point=0, axis=None):
        """(q - zero_point) * scale as float32; with axis, scale is per channel along axis."""
        values = (q - zero_point).to(torch.float32)
        if axis is None:
            return values * scale
        return values * torch.as_tensor(scale, dtype=torch.float32).view(_channel_shape(q, axis))
