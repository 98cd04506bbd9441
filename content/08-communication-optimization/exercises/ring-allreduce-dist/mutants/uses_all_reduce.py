import torch.distributed as dist


def ring_all_reduce(tensor):
    dist.all_reduce(tensor)
