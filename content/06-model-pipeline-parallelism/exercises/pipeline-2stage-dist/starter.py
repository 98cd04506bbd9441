import torch
import torch.distributed as dist
import torch.nn.functional as F


def pipeline_step(stage, batch, num_microbatches, hidden):
    """One training step of a 2-stage pipeline over `num_microbatches` micro-batches.

    Rank 0: `stage` is the first half, `batch` the input; send each activation to rank 1, then receive each
    activation's gradient and backward through it. Rank 1: `stage` is the second half, `batch` the targets;
    receive activations (shape [micro-batch, hidden]), compute the mean-squared-error loss, backward, send the
    activation's gradient back, and return the loss over the whole batch. Rank 0 returns None.
    """
    raise NotImplementedError
