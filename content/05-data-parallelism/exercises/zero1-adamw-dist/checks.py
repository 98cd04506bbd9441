"""ZeRO-1 AdamW on real ranks, three steps, against torch.optim.AdamW run by the judge on the mean of the
ranks' gradients; the optimizer state each rank keeps is measured too (m and v of one shard)."""

import math

import torch

from quiz.grader.say import say

_Generator, _randn, _AdamW = torch.Generator, torch.randn, torch.optim.AdamW
STEPS, HYPER = 3, {"lr": 1e-2, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 1e-2}


def initial(seed, n):
    gen = _Generator()
    gen.manual_seed(seed)
    return _randn(n, generator=gen, dtype=torch.float64)


def local_grad(seed, rank, step, n):
    gen = _Generator()
    gen.manual_seed(seed * 64 + rank * 8 + step + 1)
    return _randn(n, generator=gen, dtype=torch.float64)


def _state_numel(obj, param, seen, depth=0):
    if id(obj) in seen or depth > 4:
        return 0
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        return 0 if obj is param or obj.numel() == 1 else obj.numel()
    if isinstance(obj, dict):
        return sum(_state_numel(v, param, seen, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(_state_numel(v, param, seen, depth + 1) for v in obj)
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return _state_numel(vars(obj), param, seen, depth + 1)
    return 0


def _run(entry, rank, world, seed, n):
    param = initial(seed, n).clone()
    opt = entry(param, **HYPER)
    params = []
    for step in range(STEPS):
        param.grad = local_grad(seed, rank, step, n)
        opt.step()
        params.append(param.detach().clone())
    return {"params": params, "state_numel": _state_numel(opt, param, set())}


def run_1002(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 1002)


def run_64(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 64)


def _adamw(seed, n, grads_of_step, decoupled=True):
    p = initial(seed, n).clone()
    opt = _AdamW([p], foreach=False, **HYPER) if decoupled else torch.optim.Adam([p], foreach=False, **HYPER)
    out = []
    for step in range(STEPS):
        p.grad = grads_of_step(step)
        opt.step()
        out.append(p.detach().clone())
    return out


def _close(a, b):
    return isinstance(a, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b, rtol=1e-9, atol=1e-12)


def _judge(reports, world, seed, n):
    mean = lambda step: sum(local_grad(seed, r, step, n) for r in range(world)) / world  # noqa: E731
    want = _adamw(seed, n, mean)
    shard = math.ceil(n / world)
    for step in range(STEPS):
        for r in reports:
            got = r.result["params"][step]
            if _close(got, want[step]):
                continue
            local = [_adamw(seed, n, lambda s, k=k: local_grad(seed, k, s, n))[step] for k in range(world)]
            spans = [(k * shard, min((k + 1) * shard, n)) for k in range(world)]
            if isinstance(got, torch.Tensor) and got.shape == (n,) and all(
                _close(got[lo:hi], local[k][lo:hi]) for k, (lo, hi) in enumerate(spans)
            ):
                why = say("each shard was updated with its owner's own gradient: average the gradients over ranks "
                          "first (reduce-scatter, then divide by the world size)",
                          "每个分片都只用了它所属 rank 自己的梯度：要先在各 rank 间平均梯度（reduce-scatter 后除以 world size）")
            elif _close(got, _adamw(seed, n, mean, decoupled=False)[step]):
                why = say("it is Adam with an L2 penalty added to the gradient: AdamW decays the parameter itself "
                          "(p *= 1 - lr * weight_decay), apart from the gradient",
                          "这是把 L2 惩罚加到梯度上的 Adam：AdamW 直接衰减参数本身（p *= 1 - lr * weight_decay），与梯度无关")
            else:
                lo, hi = r.rank * shard, min((r.rank + 1) * shard, n)
                own_ok = _close(got[lo:hi], want[step][lo:hi])
                why = (say(f"its own shard [{lo}, {hi}) is right, the others are stale: all-gather the updated shards",
                           f"它自己的分片 [{lo}, {hi}) 是对的，其他分片没有更新：要 all-gather 更新后的分片")
                       if own_ok else say("it differs from torch.optim.AdamW", "与 torch.optim.AdamW 的结果不同"))
            raise AssertionError(say(f"step {step + 1}, rank {r.rank}, parameter of {n} values: ",
                                     f"第 {step + 1} 步，rank {r.rank}，{n} 个值的参数：") + why)
    for r in reports:
        kept = r.result["state_numel"]
        assert isinstance(kept, int) and kept <= 2 * shard + 2, say(
            f"rank {r.rank} keeps {kept} optimizer-state values: ZeRO-1 keeps m and v for its own shard only, "
            f"2 x {shard} = {2 * shard} (N={world}, {n} values)",
            f"rank {r.rank} 保存了 {kept} 个优化器状态值：ZeRO-1 只保存自己分片的 m 和 v，即 2 x {shard} = {2 * shard}"
            f"（N={world}，{n} 个值）")


def judge_1002(reports, world, seed):
    _judge(reports, world, seed, 1002)


def judge_64(reports, world, seed):
    _judge(reports, world, seed, 64)
