import torch
import torch.distributed as dist
import torch.nn.functional as F


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        z = z.clone()
        dist.all_reduce(z)
        return z

    @staticmethod
    def backward(ctx, grad):
        # averages a gradient as data parallelism would; it is already identical on every rank, so this
        # all-reduce gives the right values and only costs a third all-reduce per step
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad / dist.get_world_size()


def parallel_mlp(x, w1_shard, b1_shard, w2_shard, b2):
    hidden = F.gelu(CopyToParallel.apply(x) @ w1_shard + b1_shard)
    return ReduceFromParallel.apply(hidden @ w2_shard) + b2
