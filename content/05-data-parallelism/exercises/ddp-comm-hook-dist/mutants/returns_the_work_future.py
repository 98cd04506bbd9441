import torch.distributed as dist


def allreduce_mean_hook(state, bucket):
    buffer = bucket.buffer()
    buffer.div_(dist.get_world_size())
    # the work's future yields a list of tensors; DDP needs the bucket's tensor itself
    return dist.all_reduce(buffer, async_op=True).get_future()
