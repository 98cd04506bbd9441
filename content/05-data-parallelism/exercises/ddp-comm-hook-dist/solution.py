import torch
import torch.distributed as dist


def allreduce_mean_hook(state, bucket: dist.GradBucket) -> torch.futures.Future:
    """DDP calls this once per gradient bucket; return a future that yields the bucket averaged over ranks."""
    buffer = bucket.buffer()  # the bucket's gradients, flattened into one tensor
    buffer.div_(dist.get_world_size())  # divide before the sum: the average without a second pass
    work = dist.all_reduce(buffer, async_op=True)  # non-blocking: backward goes on computing later buckets
    return work.get_future().then(lambda fut: fut.value()[0])
