def accumulate_ddp(replicas, rank_batches, loss_fn, all_reduce):
    """One optimizer step's worth of gradient accumulation under simulated DDP (no step is taken).

    replicas:     identical models, one per rank
    rank_batches: rank_batches[r] = list of (x, y) micro-batches for rank r
    loss_fn:      loss_fn(pred, y) -> mean loss over the micro-batch's samples
    all_reduce:   all_reduce([t_rank0, t_rank1, ...]) sums the tensors in place across ranks
    Afterwards every replica's p.grad is the gradient of the mean loss over all samples of all ranks.
    """
    total = sum(len(x) for batches in rank_batches for x, _ in batches)
    for model, batches in zip(replicas, rank_batches):
        # like model.no_sync(): backward only accumulates into the local .grad
        for x, y in batches:
            loss = loss_fn(model(x), y) * (len(x) / total)
            loss.backward()
    # one all-reduce per parameter after the last micro-batch (what DDP does outside no_sync)
    per_rank = [list(model.parameters()) for model in replicas]
    for same_param in zip(*per_rank):
        all_reduce([p.grad for p in same_param])
