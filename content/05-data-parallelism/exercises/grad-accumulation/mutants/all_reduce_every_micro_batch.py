import torch


def accumulate_ddp(replicas, rank_batches, loss_fn, all_reduce):
    # reduces every micro-batch's gradient as it is produced (DDP without no_sync()):
    # the sum comes out right, but with k times the communication
    total = sum(len(x) for batches in rank_batches for x, _ in batches)
    params = [list(m.parameters()) for m in replicas]
    for ps in params:
        for p in ps:
            p.grad = torch.zeros_like(p)
    for i in range(len(rank_batches[0])):
        grads = []
        for model, batches, ps in zip(replicas, rank_batches, params):
            x, y = batches[i]
            loss = loss_fn(model(x), y) * (len(x) / total)
            grads.append(list(torch.autograd.grad(loss, ps)))
        for j in range(len(params[0])):
            same = [g[j] for g in grads]
            all_reduce(same)
            for ps, g in zip(params, same):
                ps[j].grad += g
