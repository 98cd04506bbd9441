def accumulate_ddp(replicas, rank_batches, loss_fn, all_reduce):
    """One optimizer step's worth of gradient accumulation under simulated DDP (no step is taken).

    replicas:     identical models, one per rank
    rank_batches: rank_batches[r] = list of (x, y) micro-batches for rank r
    loss_fn:      loss_fn(pred, y) -> mean loss over the micro-batch's samples
    all_reduce:   all_reduce([t_rank0, t_rank1, ...]) sums the tensors in place across ranks
    Afterwards every replica's p.grad is the gradient of the mean loss over all samples of all ranks.
    """
    # TODO: clear stale gradients; on every rank, backward each micro-batch's loss scaled by
    #       (its samples / all samples of all ranks) without communicating;
    #       then all-reduce each parameter's gradient once
    raise NotImplementedError("accumulate_ddp")
