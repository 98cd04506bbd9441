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
        # TODO: acc = grad (flattened) + this name's residual; k = max(1, int(numel * ratio));
        #       pick the k largest |acc|; the residual becomes acc with those entries zeroed
        raise NotImplementedError("TopKErrorFeedback.compress")

    @staticmethod
    def decompress(values, indices, shape):
        """The dense tensor of `shape` that is zero except values at the flat indices."""
        # TODO: scatter values into a flat zero tensor, then reshape
        raise NotImplementedError("TopKErrorFeedback.decompress")
