"""Simulated ranks: identical replicas, a summing all_reduce that counts traffic, and a full-batch reference."""

import copy

import torch
import torch.nn.functional as F

from quiz.grader.say import say


class Comm:
    """all_reduce over simulated ranks: sums in place, like dist.all_reduce's default ReduceOp.SUM."""

    def __init__(self, world):
        self.world = world
        self.calls = 0
        self.elements = 0  # elements sent per rank, counted as the tensor size

    def __call__(self, tensors):
        tensors = list(tensors)
        assert len(tensors) == self.world, say(f"all_reduce needs one tensor per rank ({self.world}), got {len(tensors)}",
                                               f"all_reduce 需要每个 rank 一个 tensor（{self.world} 个），实际收到 {len(tensors)} 个")
        total = sum(t.detach().clone() for t in tensors)
        for t in tensors:
            with torch.no_grad():
                t.copy_(total)
        self.calls += 1
        self.elements += tensors[0].numel()


def _model(gen):
    model = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(), torch.nn.Linear(5, 1)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 2 - 1)
    return model


def _setup(world, sizes, seed):
    """sizes[r] = the micro-batch sizes of rank r."""
    gen = torch.Generator().manual_seed(seed)
    base = _model(gen)
    replicas = [copy.deepcopy(base) for _ in range(world)]
    for m in replicas:
        for p in m.parameters():
            p.grad = torch.full_like(p, 7.0)  # stale gradients from the previous step
    batches = [[(torch.rand(n, 4, generator=gen, dtype=torch.float64) * 2 - 1,
                 torch.rand(n, 1, generator=gen, dtype=torch.float64)) for n in rank] for rank in sizes]
    return base, replicas, batches


def _reference(base, batches):
    model = copy.deepcopy(base)
    xs = torch.cat([x for rank in batches for x, _ in rank])
    ys = torch.cat([y for rank in batches for _, y in rank])
    loss = F.mse_loss(model(xs), ys)
    return torch.autograd.grad(loss, list(model.parameters()))


def _diagnose(got, want, world, k):
    ratio = float((got * want).sum() / (want * want).sum())
    for factor, why in ((k * world, say(f"{k * world} = k x world_size times too large: scale each micro-batch loss",
                                        f"大了 {k * world} = k x world_size 倍：要对每个 micro-batch 的 loss 做缩放")),
                        (k, say(f"{k} = k times too large: scale each micro-batch loss by its share of the samples",
                                f"大了 {k} = k 倍：每个 micro-batch 的 loss 要按它占的样本比例缩放")),
                        (world, say(f"{world} = world_size times too large: all_reduce sums, it does not average",
                                    f"大了 {world} = world_size 倍：all_reduce 是求和，不是求平均"))):
        if factor > 1 and abs(ratio - factor) < 1e-6 * factor:
            return say("; ", "；") + why
    return ""


def _run_and_compare(entry, world, sizes, seed, what):
    base, replicas, batches = _setup(world, sizes, seed)
    comm = Comm(world)
    entry(replicas, batches, F.mse_loss, comm)
    want = _reference(base, batches)
    names = [n for n, _ in base.named_parameters()]
    k = len(sizes[0])
    for r, model in enumerate(replicas):
        for name, p, w in zip(names, model.parameters(), want):
            assert p.grad is not None, say(f"{what}: rank {r} has no gradient for {name}", f"{what}：rank {r} 上 {name} 没有梯度")
            err = float((p.grad - w).abs().max())
            assert err <= 1e-10, say(
                f"{what}: rank {r}, {name}: the gradient differs from one full-batch backward over all "
                f"{sum(map(sum, sizes))} samples by up to {err:.3g}{_diagnose(p.grad, w, world, k)}",
                f"{what}：rank {r}，{name}：梯度与在全部 {sum(map(sum, sizes))} 个样本上做一次 full-batch backward "
                f"的结果最多相差 {err:.3g}{_diagnose(p.grad, w, world, k)}",
            )
    return comm, base


def test_equal_micro_batches(entry):
    _run_and_compare(entry, 2, [[3, 3, 3, 3], [3, 3, 3, 3]], 0, say("2 ranks x 4 micro-batches of 3 samples",
                                                                    "2 个 rank x 4 个 micro-batch，每个 3 个样本"))


def test_single_rank_single_batch(entry):
    _run_and_compare(entry, 1, [[5]], 1, say("1 rank, 1 micro-batch", "1 个 rank，1 个 micro-batch"))


def test_stale_gradients_are_cleared(entry):
    base, replicas, batches = _setup(1, [[2, 2]], 2)
    entry(replicas, batches, F.mse_loss, Comm(1))
    want = _reference(base, batches)
    got = next(replicas[0].parameters()).grad
    assert got is not None and not torch.allclose(got - want[0], torch.full_like(got, 7.0)), say(
        "every .grad started at 7.0 (left over from the previous step) and your result is exactly 7.0 too large: "
        "zero or clear the gradients before accumulating",
        "每个 .grad 的初值都是 7.0（上一步的残留），而你的结果恰好大了 7.0：累加之前要先把梯度清零或清空",
    )
    assert torch.allclose(got, want[0], atol=1e-10), say("the gradient after clearing the stale values is still wrong",
                                                         "清掉残留值之后，梯度仍然不对")


def test_unequal_micro_batches(entry):
    _run_and_compare(entry, 2, [[1, 5], [4, 2]], 3,
                     say("micro-batches of 1 and 5 samples on rank 0, 4 and 2 on rank 1 (weight each by its sample count, "
                         "not 1/k)",
                         "rank 0 上的 micro-batch 有 1 和 5 个样本，rank 1 上有 4 和 2 个（按各自样本数加权，不是 1/k）"))


def test_one_all_reduce_per_step(entry):
    world, sizes = 4, [[2, 2, 2]] * 4
    base, replicas, batches = _setup(world, sizes, 4)
    comm = Comm(world)
    entry(replicas, batches, F.mse_loss, comm)
    numel = sum(p.numel() for p in base.parameters())
    assert comm.elements == numel, say(
        f"4 ranks x 3 micro-batches: all_reduce should move each of the {numel} gradient elements once per step "
        f"(accumulate locally, like no_sync(), then reduce once); it moved {comm.elements} elements "
        f"({comm.elements / numel:g} x) in {comm.calls} call(s)",
        f"4 个 rank x 3 个 micro-batch：all_reduce 每步应把 {numel} 个梯度元素各传一次"
        f"（像 no_sync() 那样先在本地累加，再 reduce 一次）；实际在 {comm.calls} 次调用中传了 {comm.elements} 个元素"
        f"（{comm.elements / numel:g} 倍）",
    )
