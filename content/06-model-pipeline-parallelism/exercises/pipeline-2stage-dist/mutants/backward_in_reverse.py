import torch
import torch.distributed as dist
import torch.nn.functional as F


def pipeline_step(stage, batch, num_microbatches, hidden):
    """One training step of a 2-stage pipeline (GPipe order). Rank 0: `batch` is the input; rank 1: the targets.
    Rank 1 returns the loss over the whole batch (mean squared error); rank 0 returns None."""
    rank = dist.get_rank()
    pieces = batch.chunk(num_microbatches)
    if rank == 0:
        outputs = []
        for x in pieces:  # all forwards: each activation goes to the next stage
            out = stage(x)
            outputs.append(out)
            dist.send(out.detach(), 1)
        for out in reversed(outputs):  # last in, first out: but rank 1 sends the gradients in forward order
            grad = torch.empty_like(out)
            dist.recv(grad, 1)
            out.backward(grad)
        return None
    total = torch.zeros((), dtype=batch.dtype)
    acts, losses = [], []
    for y in pieces:  # all forwards: rank 0 is sending activations, so receive them all first
        act = torch.empty(y.shape[0], hidden, dtype=batch.dtype)
        dist.recv(act, 0)
        act.requires_grad_()  # so that backward leaves the activation's gradient for rank 0
        acts.append(act)
        losses.append(F.mse_loss(stage(act), y) / num_microbatches)  # the batch mean, in parts
    for act, loss in zip(acts, losses):  # then all backwards, sending each gradient back in forward order
        loss.backward()  # gradients accumulate in the stage's parameters over the micro-batches
        dist.send(act.grad, 0)
        total += loss.detach()
    return total
