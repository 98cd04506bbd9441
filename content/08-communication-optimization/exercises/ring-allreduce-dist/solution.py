import torch
import torch.distributed as dist


def ring_all_reduce(tensor: torch.Tensor) -> None:
    """Sum `tensor` over all ranks, in place, with a ring of send/recv: reduce-scatter, then all-gather."""
    rank, world = dist.get_rank(), dist.get_world_size()
    if world == 1:
        return
    chunks = torch.tensor_split(tensor.view(-1), world)  # views: writing a chunk writes the tensor
    right, left = (rank + 1) % world, (rank - 1) % world
    for step in range(world - 1):  # reduce-scatter: after it, chunk (rank + 1) % world is complete here
        send_i, recv_i = (rank - step) % world, (rank - step - 1) % world
        incoming = torch.empty_like(chunks[recv_i])
        request = dist.isend(chunks[send_i], right)
        dist.recv(incoming, left)
        request.wait()
        chunks[recv_i].add_(incoming)
    for step in range(world - 1):  # all-gather: pass the complete chunks around the ring
        send_i, recv_i = (rank + 1 - step) % world, (rank - step) % world
        request = dist.isend(chunks[send_i], right)
        dist.recv(chunks[recv_i], left)
        request.wait()
