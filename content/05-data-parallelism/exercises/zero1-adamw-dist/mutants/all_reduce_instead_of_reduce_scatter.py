import math

import torch
import torch.distributed as dist


class Zero1AdamW:
    def __init__(self, param, lr=1e-2, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        self.param, self.lr, self.betas, self.eps, self.wd = param, lr, betas, eps, weight_decay
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        self.shard = math.ceil(param.numel() / self.world)
        self.m = torch.zeros(self.shard, dtype=param.dtype)
        self.v = torch.zeros(self.shard, dtype=param.dtype)
        self.t = 0

    def _padded(self, flat):
        out = torch.zeros(self.shard * self.world, dtype=flat.dtype)
        out[: flat.numel()] = flat
        return out

    @torch.no_grad()
    def step(self):
        n, lo = self.param.numel(), self.rank * self.shard
        everything = self._padded(self.param.grad.view(-1))
        dist.all_reduce(everything)  # right values, but every rank receives the whole gradient, not its shard
        grad = everything[lo : lo + self.shard].clone()
        grad /= self.world  # averaged, as data parallelism needs
        p = self._padded(self.param.view(-1))[lo : lo + self.shard].clone()
        self.t += 1
        b1, b2 = self.betas
        p.mul_(1 - self.lr * self.wd)  # decoupled weight decay: the parameter shrinks, the gradient does not change
        self.m.mul_(b1).add_(grad, alpha=1 - b1)
        self.v.mul_(b2).addcmul_(grad, grad, value=1 - b2)
        denom = (self.v.sqrt() / math.sqrt(1 - b2**self.t)).add_(self.eps)
        p.addcdiv_(self.m, denom, value=-self.lr / (1 - b1**self.t))
        full = torch.empty(self.shard * self.world, dtype=p.dtype)
        dist.all_gather_single(full, p)  # every rank gets every updated shard
        self.param.view(-1).copy_(full[:n])
