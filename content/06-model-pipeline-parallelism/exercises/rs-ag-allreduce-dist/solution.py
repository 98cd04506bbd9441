import torch
import torch.distributed as dist


def all_reduce_rs_ag(tensor: torch.Tensor) -> None:
    """Sum `tensor` over all ranks in place: reduce-scatter into a shard, then all-gather the shards."""
    world = dist.get_world_size()
    flat = tensor.view(-1)
    shard_len = -(-flat.numel() // world)  # ceil: pad so every rank gets an equal shard
    padded = torch.zeros(shard_len * world, dtype=flat.dtype)
    padded[: flat.numel()] = flat
    shard = torch.empty(shard_len, dtype=flat.dtype)
    dist.reduce_scatter_single(shard, padded)  # shard r = the sum of every rank's piece r
    gathered = torch.empty_like(padded)
    dist.all_gather_single(gathered, shard)
    flat.copy_(gathered[: flat.numel()])
