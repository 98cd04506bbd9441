import torch
import torch.distributed as dist


def ring_all_reduce(tensor: torch.Tensor) -> None:
    """Sum `tensor` over all ranks, in place, using only dist.send/recv (or isend/irecv) between neighbours.

    rank = dist.get_rank(), world = dist.get_world_size(); split tensor.view(-1) into `world` chunks.
    """
    raise NotImplementedError("reduce-scatter around the ring, then all-gather")
