import torch.distributed as dist


def allreduce_mean_hook(state, bucket):
    buffer = bucket.buffer()
    buffer.div_(dist.get_world_size())
    work = dist.all_reduce(buffer, async_op=True)
    return work.get_future().then(lambda fut: fut.value()[0] / dist.get_world_size())
