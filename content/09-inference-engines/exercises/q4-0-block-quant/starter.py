import torch


class Q4_0:
    """llama.cpp's Q4_0: blocks of 32 values, one fp16 scale each, 4-bit codes packed two per byte."""

    @staticmethod
    def quantize(x):
        """x: 1-D float32, length a multiple of 32. Returns (d: float16 (nb,), qs: uint8 (nb, 16))."""
        # TODO: per block: signed max of largest magnitude, d = max / -8, id = 1 / d (0 when d == 0),
        #       code = min(15, floor(x * id + 8.5)), byte j = code[j] | code[j + 16] << 4
        raise NotImplementedError("Q4_0.quantize")

    @staticmethod
    def dequantize(d, qs):
        """Returns float32 of shape (nb * 32,): (code - 8) * d."""
        raise NotImplementedError("Q4_0.dequantize")
