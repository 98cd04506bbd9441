"""ZeRO-1 AdamW on real ranks, three steps, against torch.optim.AdamW run by the judge on the mean of the
ranks' gradients; the optimizer state each rank keeps is measured too (m and v of one shard)."""

import math

import torch

from quiz.grader.say import say

_Generator, _randn, _AdamW = torch.Generator, torch.randn, torch.optim.AdamW
STEPS, HYPER = 3, {"lr": 1e-2, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 1e-2}
REDUCE_SCATTER = ("reduce_scatter_single", "reduce_scatter_tensor", "reduce_scatter")
ALL_GATHER = ("all_gather_single", "all_gather_into_tensor", "all_gather")


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


def _adamw_decay_after(seed, n, grads_of_step):
    """AdamW written out by hand, with the decoupled decay applied after the Adam update instead of before."""
    lr, (b1, b2), eps, wd = HYPER["lr"], HYPER["betas"], HYPER["eps"], HYPER["weight_decay"]
    p, m, v, out = initial(seed, n).clone(), torch.zeros(n, dtype=torch.float64), torch.zeros(n, dtype=torch.float64), []
    for step in range(STEPS):
        g, t = grads_of_step(step), step + 1
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr / (1 - b1**t) * m / (v.sqrt() / math.sqrt(1 - b2**t) + eps)
        p = p * (1 - lr * wd)
        out.append(p.clone())
    return out


def _no_decay(seed, n, grads_of_step):
    p = initial(seed, n).clone()
    opt = _AdamW([p], foreach=False, **{**HYPER, "weight_decay": 0.0})
    out = []
    for step in range(STEPS):
        p.grad = grads_of_step(step)
        opt.step()
        out.append(p.detach().clone())
    return out


def _why_values(got, step, seed, n, world, mean):
    """The usual mistake that gives `got` at `step`, or None."""
    if isinstance(got, torch.Tensor) and got.is_floating_point() and bool(got.isnan().any()):
        return say("it holds NaN: with t counted from 0 the bias correction 1 - beta1**t is 0 on the first step; "
                   "increase t before using it", "其中有 NaN：t 从 0 开始时第一步的偏差修正 1 - beta1**t 是 0；要先把 t 加一再用")
    variants = [
        (lambda: _adamw(seed, n, lambda s: mean(s) * world),
         say(f"it matches AdamW on the sum of the gradients: the reduce-scatter sums over ranks, so divide the shard by "
             f"the world size ({world}); Adam's update is nearly scale-free, only eps shows the difference",
             f"它等于用梯度之和做的 AdamW：reduce-scatter 得到的是各 rank 之和，要除以 world size（{world}）；Adam 的更新"
             "几乎与梯度的尺度无关，只有 eps 让差别显现出来")),
        (lambda: _adamw(seed, n, lambda s: mean(s) / world),
         say(f"it matches AdamW on the mean gradient divided by {world} again: the gradient was averaged twice "
             "(divided before the reduce-scatter and after it)",
             f"它等于用平均梯度再除以 {world} 做的 AdamW：梯度被平均了两次（reduce-scatter 前后各除了一次）")),
        (lambda: _no_decay(seed, n, mean),
         say("it matches AdamW without weight decay: multiply the shard by 1 - lr * weight_decay before the update",
             "它等于没有 weight decay 的 AdamW：更新之前要把分片乘以 1 - lr * weight_decay")),
        (lambda: _adamw_decay_after(seed, n, mean),
         say("it matches AdamW with the decay applied after the Adam update: torch.optim.AdamW multiplies the "
             "parameter by 1 - lr * weight_decay first", "它等于在 Adam 更新之后才做衰减的 AdamW：torch.optim.AdamW "
             "先把参数乘以 1 - lr * weight_decay")),
    ]
    for trajectory, why in variants:
        if _close(got, trajectory()[step]):
            return why
    return None


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
            elif _why_values(got, step, seed, n, world, mean):
                why = _why_values(got, step, seed, n, world, mean)
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
        if r.calls.get("all_reduce"):
            raise AssertionError(say(
                f"rank {r.rank} called all_reduce: ZeRO-1 reduce-scatters the gradient so that each rank receives only "
                "its own shard; an all-reduce of the gradient plus the all-gather of the parameter moves 1.5 times "
                "what plain data parallelism moves",
                f"rank {r.rank} 调用了 all_reduce：ZeRO-1 对梯度做 reduce-scatter，每个 rank 只收到自己的那一片；"
                "对梯度 all-reduce 再 all-gather 参数，通信量是普通数据并行的 1.5 倍"))
        rs, ag = (sum(r.calls.get(op, 0) for op in ops) for ops in (REDUCE_SCATTER, ALL_GATHER))
        assert (rs, ag) == (STEPS, STEPS), say(
            f"rank {r.rank} made {rs} reduce-scatter and {ag} all-gather calls in {STEPS} steps: one of each per step",
            f"rank {r.rank} 在 {STEPS} 步里调用了 {rs} 次 reduce-scatter、{ag} 次 all-gather：每步各一次")
    for r in reports:
        kept = r.result["state_numel"]
        assert isinstance(kept, int) and kept <= 2 * shard + 2, say(
            f"rank {r.rank} keeps {kept} optimizer-state values: ZeRO-1 keeps m and v for its own shard only, "
            f"2 x {shard} = {2 * shard} (N={world}, {n} values); a full-size buffer kept on the object counts too",
            f"rank {r.rank} 保存了 {kept} 个优化器状态值：ZeRO-1 只保存自己分片的 m 和 v，即 2 x {shard} = {2 * shard}"
            f"（N={world}，{n} 个值）；保存在对象上的全长缓冲区也算在内")


def judge_1002(reports, world, seed):
    _judge(reports, world, seed, 1002)


def judge_64(reports, world, seed):
    _judge(reports, world, seed, 64)
