import torch.distributed as dist


def allreduce_mean_hook(state, bucket):
    work = dist.all_reduce(bucket.buffer(), async_op=True)  # the sum: DDP's gradients are an average
    return work.get_future().then(lambda fut: fut.value()[0])
