import torch
import torch.distributed as dist


def all_reduce_rs_ag(tensor):
    world, rank = dist.get_world_size(), dist.get_rank()
    flat = tensor.view(-1)
    shard_len = -(-flat.numel() // world)
    padded = torch.zeros(shard_len * world, dtype=flat.dtype)
    padded[: flat.numel()] = flat
    shard = torch.empty(shard_len, dtype=flat.dtype)
    dist.reduce_scatter_single(shard, padded)
    gathered = torch.empty_like(padded)
    mine = padded[rank * shard_len : (rank + 1) * shard_len].clone()  # the input's piece, not the reduced shard
    dist.all_gather_single(gathered, mine)
    flat.copy_(gathered[: flat.numel()])
