"""A recording network and the tests: shard contents, gather order, elements sent per rank, RS + AG = all-reduce."""

import torch

from quiz.grader.say import say


class Network:
    """Delivers copies between ranks and counts the elements each rank sends."""

    def __init__(self, p):
        self.p = p
        self.sent = [0] * p

    def __call__(self, src, dst, t):
        assert isinstance(t, torch.Tensor), say(f"send(src, dst, t) expects a tensor, got {type(t).__name__}",
                                                f"send(src, dst, t) 需要一个 tensor，实际收到 {type(t).__name__}")
        assert 0 <= src < self.p and 0 <= dst < self.p, say(f"send({src}, {dst}, ...): ranks run from 0 to {self.p - 1}",
                                                            f"send({src}, {dst}, ...)：rank 的范围是 0 到 {self.p - 1}")
        assert src != dst, say(f"rank {src} sent to itself; a rank's own data needs no network",
                               f"rank {src} 发给了自己；rank 自己的数据不需要走网络")
        self.sent[src] += t.numel()
        return t.detach().clone()


def inputs(p, n, seed):
    gen = torch.Generator().manual_seed(seed)
    # small integers as float64, so sums are exact
    return [torch.randint(-9, 10, (n,), generator=gen).to(torch.float64) for _ in range(p)]


def _as_list(out, p, what):
    assert isinstance(out, (list, tuple)) and len(out) == p, say(
        f"{what} should return a list of {p} tensors (one per rank), got {type(out).__name__}"
        + (f" of length {len(out)}" if isinstance(out, (list, tuple)) else ""),
        f"{what} 应返回 {p} 个 tensor 组成的列表（每个 rank 一个），实际是 {type(out).__name__}"
        + (f"，长度 {len(out)}" if isinstance(out, (list, tuple)) else ""),
    )
    return list(out)


def test_reduce_scatter_shards(entry):
    for p, n in ((4, 12), (3, 6), (2, 4)):
        xs = inputs(p, n, seed=p)
        total = torch.stack(xs).sum(0)
        shards = _as_list(entry.reduce_scatter([x.clone() for x in xs], Network(p)), p, "reduce_scatter")
        for r, s in enumerate(shards):
            want = total.chunk(p)[r]
            assert tuple(s.shape) == (n // p,), say(f"P={p}, N={n}: rank {r}'s shard has shape {tuple(s.shape)}, expected ({n // p},)",
                                                    f"P={p}，N={n}：rank {r} 的 shard 形状是 {tuple(s.shape)}，应为 ({n // p},)")
            if torch.equal(s, want):
                continue
            hint = ""
            for c, other in enumerate(total.chunk(p)):
                if torch.equal(s, other):
                    hint = say(f": that is chunk {c} of the sum; rank r must own chunk r",
                               f"：这是求和结果的第 {c} 个 chunk；rank r 应持有第 r 个 chunk")
            if not hint and torch.equal(s * p, want):
                hint = say(": that is the mean; reduce-scatter sums (averaging, as DDP does, is a separate division)",
                           "：这是平均值；reduce-scatter 是求和（像 DDP 那样求平均是另外再做一次除法）")
            assert False, say(f"P={p}, N={n}: rank {r}'s shard is {s.tolist()}, expected chunk {r} of the sum {want.tolist()}{hint}",
                              f"P={p}，N={n}：rank {r} 的 shard 是 {s.tolist()}，应为求和结果的第 {r} 个 chunk {want.tolist()}{hint}")


def test_all_gather_order(entry):
    for p, n in ((4, 3), (3, 2), (2, 5)):
        shards = [torch.arange(n, dtype=torch.float64) + 100 * r for r in range(p)]
        outs = _as_list(entry.all_gather([s.clone() for s in shards], Network(p)), p, "all_gather")
        want = torch.cat(shards)
        for r, y in enumerate(outs):
            assert torch.equal(y, want), say(
                f"P={p}: rank {r} gathered {y.tolist()}, expected {want.tolist()} "
                f"(shard k, whose values start at 100k, belongs at position k, whichever rank it arrived from)",
                f"P={p}：rank {r} 收集到的是 {y.tolist()}，应为 {want.tolist()}"
                f"（shard k 的值从 100k 开始，无论它从哪个 rank 传来，都应放在位置 k）",
            )


def test_reduce_scatter_volume(entry):
    for p, n in ((4, 16), (8, 64), (2, 8)):
        net = Network(p)
        entry.reduce_scatter(inputs(p, n, seed=30 + p), net)
        want = (p - 1) * n // p
        for r in range(p):
            assert net.sent[r] == want, say(
                f"reduce_scatter with P={p}, N={n}: rank {r} sent {net.sent[r]} elements, expected (P-1)/P * N = {want}"
                + ("; sending the whole tensor to every peer costs (P-1) * N" if net.sent[r] == (p - 1) * n else ""),
                f"reduce_scatter，P={p}，N={n}：rank {r} 发送了 {net.sent[r]} 个元素，应为 (P-1)/P * N = {want}"
                + ("；把整个 tensor 发给每个 peer 要花 (P-1) * N" if net.sent[r] == (p - 1) * n else ""),
            )


def test_all_gather_volume(entry):
    for p, n in ((4, 4), (8, 8), (2, 4)):
        net = Network(p)
        entry.all_gather([torch.ones(n, dtype=torch.float64) * r for r in range(p)], net)
        want = (p - 1) * n
        for r in range(p):
            assert net.sent[r] == want, say(
                f"all_gather with P={p} shards of {n} (N = {p * n}): rank {r} sent {net.sent[r]} elements, "
                f"expected (P-1)/P * N = {want}",
                f"all_gather，P={p} 个大小为 {n} 的 shard（N = {p * n}）：rank {r} 发送了 {net.sent[r]} 个元素，"
                f"应为 (P-1)/P * N = {want}",
            )


def test_together_make_all_reduce(entry):
    p, n = 4, 20
    xs = inputs(p, n, seed=7)
    keep = [x.clone() for x in xs]
    net = Network(p)
    outs = _as_list(entry.all_gather(entry.reduce_scatter(xs, net), net), p, "all_gather")
    for r, x in enumerate(xs):
        assert torch.equal(x, keep[r]), say(f"rank {r}'s input was changed in place; work on copies",
                                            f"rank {r} 的输入被原地修改了；请在副本上操作")
    total = torch.stack(keep).sum(0)
    for r, y in enumerate(outs):
        if not torch.equal(y, total):
            bad = (y != total).nonzero().flatten().tolist() if y.shape == total.shape else [0]
            i = bad[0]
            assert False, say(
                f"rank {r}: all_gather(reduce_scatter(x)) should equal the all-reduce sum; first difference at element {i}: "
                f"expected {total[i].item()}, got {y.reshape(-1)[i].item() if y.numel() > i else 'nothing'} "
                f"({len(bad)} of {n} elements wrong)",
                f"rank {r}：all_gather(reduce_scatter(x)) 应等于 all-reduce 的求和结果；第一个不同在元素 {i}："
                f"应为 {total[i].item()}，实际是 {y.reshape(-1)[i].item() if y.numel() > i else '空'}"
                f"（{n} 个元素中有 {len(bad)} 个错误）",
            )
    for r in range(p):
        assert net.sent[r] == 2 * (p - 1) * n // p, say(
            f"rank {r} sent {net.sent[r]} elements over both phases, expected 2(P-1)/P * N = {2 * (p - 1) * n // p}, "
            "the same as one ring all-reduce",
            f"rank {r} 在两个阶段共发送了 {net.sent[r]} 个元素，应为 2(P-1)/P * N = {2 * (p - 1) * n // p}，"
            "与一次 ring all-reduce 相同",
        )
