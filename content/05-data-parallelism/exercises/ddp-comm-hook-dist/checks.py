"""DDP with the learner's comm hook on real ranks, against plain data-parallel arithmetic done by the judge:
the gradient every rank ends with is the mean over ranks of each rank's local gradient."""

import torch
from torch.nn.parallel import DistributedDataParallel

from quiz.grader.say import say

_Generator, _randn, _mse = torch.Generator, torch.randn, torch.nn.functional.mse_loss
_Future, _Tensor = torch._C.Future, torch.Tensor  # work.get_future() gives the C class
BATCH = 5


def build_model(seed):
    gen = _Generator()
    gen.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3)
    ).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(_randn(p.shape, generator=gen, dtype=torch.float64) * 0.5)
    return model


def rank_batch(rank, seed, step):
    gen = _Generator()
    gen.manual_seed(seed * 16 + rank * 4 + step)
    return _randn(BATCH, 6, generator=gen, dtype=torch.float64), _randn(BATCH, 3, generator=gen, dtype=torch.float64)


def run_ddp(entry, rank, world, seed):
    model = build_model(seed)
    ddp = DistributedDataParallel(model, bucket_cap_mb=0.001)  # about 1 KB: several buckets after the first step
    sizes = []

    def counting_hook(state, bucket):
        sizes.append(int(bucket.buffer().numel()))
        fut = entry(state, bucket)
        if not isinstance(fut, _Future):
            raise TypeError(say(
                f"the hook returned {type(fut).__name__}, not a torch.futures.Future: return "
                "work.get_future().then(...) from dist.all_reduce(..., async_op=True)",
                f"hook 返回的是 {type(fut).__name__}，不是 torch.futures.Future：要返回 dist.all_reduce(..., "
                "async_op=True) 的 work.get_future().then(...)"))
        return fut.then(_one_tensor)

    ddp.register_comm_hook(None, counting_hook)
    grads = []
    for step in range(2):
        model.zero_grad()
        x, y = rank_batch(rank, seed, step)
        _mse(ddp(x), y).backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    return {"grads": grads, "bucket_sizes": sizes}


def _one_tensor(fut):
    value = fut.value()
    if not isinstance(value, _Tensor):
        raise TypeError(say(
            f"the hook's future yields {type(value).__name__}, not the bucket's tensor: the future of an all_reduce "
            "work holds a list of tensors, so return work.get_future().then(lambda fut: fut.value()[0])",
            f"hook 的 future 给出的是 {type(value).__name__}，而不是 bucket 的张量：all_reduce 的 work 的 future 里是"
            "张量列表，所以要返回 work.get_future().then(lambda fut: fut.value()[0])"))
    return value


def _local_grads(seed, rank, step):
    model = build_model(seed)
    x, y = rank_batch(rank, seed, step)
    _mse(model(x), y).backward()
    return [p.grad for p in model.parameters()]


def judge_ddp(reports, world, seed):
    names = [n for n, _ in build_model(seed).named_parameters()]
    total = sum(p.numel() for p in build_model(seed).parameters())
    for step in range(2):
        local = [_local_grads(seed, r, step) for r in range(world)]
        want = [sum(g[i] for g in local) / world for i in range(len(names))]
        for r in reports:
            got = r.result["grads"][step]
            assert len(got) == len(want), say("a parameter's gradient is missing", "缺少某个参数的梯度")
            for name, g, w in zip(names, got, want):
                if torch.allclose(g, w, rtol=1e-9, atol=1e-12):
                    continue
                if torch.allclose(g, w * world, rtol=1e-9, atol=1e-12):
                    why = say(f"{world} times too large: the hook sums; DDP's gradient is the average, so divide "
                              "by the world size", f"大了 {world} 倍：hook 做的是求和；DDP 的梯度是平均值，要除以 world size")
                elif torch.allclose(g, w / world, rtol=1e-9, atol=1e-12):
                    why = say(f"{world} times too small: it was averaged twice (divided before and after the "
                              "all-reduce)", f"小了 {world} 倍：平均了两次（all-reduce 前后各除了一次）")
                elif torch.allclose(g, local[r.rank][names.index(name)], rtol=1e-9, atol=1e-12):
                    why = say("it equals this rank's local gradient: the bucket was never all-reduced, so the "
                              "replicas drift apart", "等于这个 rank 本地的梯度：bucket 没有做 all-reduce，各副本会逐渐不一致")
                else:
                    why = say("it is not the mean of the ranks' gradients (a bucket changed in place after its "
                              "async all-reduce started, say divided while it was still running, gives values like these: "
                              "divide before dist.all_reduce or inside .then)",
                              "不是各 rank 梯度的平均值（异步 all-reduce 开始之后又原地修改了 bucket，例如在完成之前"
                              "除以 world size，就会得到这样的值：要在 dist.all_reduce 之前或在 .then 里除）")
                raise AssertionError(say(f"step {step}, rank {r.rank}, gradient of {name}: ",
                                         f"第 {step} 步，rank {r.rank}，{name} 的梯度：") + why)
    for r in reports:
        sizes = r.result["bucket_sizes"]
        assert sum(sizes) == 2 * total, say(
            f"rank {r.rank}: the hook saw {sum(sizes)} gradient values over two steps, the model has {total} per step",
            f"rank {r.rank}：两步里 hook 共看到 {sum(sizes)} 个梯度值，而模型每步有 {total} 个")
