import torch


class TopKErrorFeedback:
    """Top-k gradient sparsification with an error-feedback residual per named tensor."""

    def __init__(self, ratio):
        self.ratio = ratio
        self.residual = {}

    def compress(self, name, grad):
        """Add the residual, send the k largest |entries|, keep the rest as the new residual.

        Returns (values, indices): indices are flat positions in grad.reshape(-1).
        """
        acc = grad.reshape(-1) + self.residual.get("all", torch.zeros(grad.numel(), dtype=grad.dtype))
        k = max(1, int(acc.numel() * self.ratio))
        indices = acc.abs().topk(k).indices
        values = acc[indices]
        left = acc.clone()
        left[indices] = 0
        self.residual["all"] = left
        return values, indices

    @staticmethod
    def decompress(values, indices, shape):
        """The dense tensor of `shape` that is zero except values at the flat indices."""
        numel = 1
        for s in shape:
            numel *= s
        dense = torch.zeros(numel, dtype=values.dtype)
        dense[indices] = values
        return dense.reshape(shape)
