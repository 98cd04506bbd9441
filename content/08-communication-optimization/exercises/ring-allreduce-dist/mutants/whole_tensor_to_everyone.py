import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    # right values, but every rank ships its whole tensor to every other rank: (N-1) times the data
    rank, world = dist.get_rank(), dist.get_world_size()
    total = tensor.clone()
    for peer in range(world):
        if peer == rank:
            continue
        incoming = torch.empty_like(tensor)
        if rank < peer:
            dist.send(tensor, peer)
            dist.recv(incoming, peer)
        else:
            dist.recv(incoming, peer)
            dist.send(tensor, peer)
        total += incoming
    tensor.copy_(total)
