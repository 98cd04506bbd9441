import torch


class Q4_0:
    """llama.cpp's Q4_0: blocks of 32 values, one fp16 scale each, 4-bit codes packed two per byte."""

    @staticmethod
    def quantize(x):
        """x: 1-D float32, length a multiple of 32. Returns (d: float16 (nb,), qs: uint8 (nb, 16))."""
        if x.dim() != 1 or x.numel() % 32:
            raise ValueError(f"Q4_0 needs a 1-D tensor whose length is a multiple of 32, got {tuple(x.shape)}")
        b = x.to(torch.float32).view(-1, 32)
        idx = b.abs().argmax(dim=1, keepdim=True)
        d = b.gather(1, idx) / -8  # the largest-magnitude value maps to -8
        inv = torch.where(d != 0, 1.0 / d, torch.zeros_like(d))
        codes = torch.floor(b * inv + 8.5).to(torch.uint8)
        qs = codes[:, :16] | (codes[:, 16:] << 4)
        return d.squeeze(1).to(torch.float16), qs

    @staticmethod
    def dequantize(d, qs):
        """Returns float32 of shape (nb * 32,): (code - 8) * d."""
        codes = torch.cat([qs & 0x0F, qs >> 4], dim=1).to(torch.float32)
        return ((codes - 8) * d.to(torch.float32)[:, None]).reshape(-1)
