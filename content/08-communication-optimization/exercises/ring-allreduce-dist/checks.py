"""Ring all-reduce on real ranks: each rank's input comes from the seed, the judge sums them itself, and the
bytes each rank sent through send/isend are compared with what a ring moves: 2(N-1)/N of the tensor."""

import torch

from quiz.grader.say import say

_Generator, _randn, _tensor_split = torch.Generator, torch.randn, torch.tensor_split


def rank_input(rank, world, seed, n):
    gen = _Generator()
    gen.manual_seed(seed * 8 + rank)
    return _randn(n, generator=gen, dtype=torch.float64)


def _run(entry, rank, world, seed, n):
    tensor = rank_input(rank, world, seed, n)
    returned = entry(tensor)
    return {"tensor": tensor, "returned": returned if isinstance(returned, torch.Tensor) else None}


def run_1024(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 1024)


def run_10(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 10)


def _no_collectives(reports):
    for r in reports:
        used = r.collective_calls()
        assert not used, say(
            f"rank {r.rank} called {', '.join(sorted(used))}: every byte must move through send/recv "
            "(or isend/irecv) between neighbours",
            f"rank {r.rank} 调用了 {', '.join(sorted(used))}：所有数据都必须通过相邻 rank 之间的 send/recv"
            "（或 isend/irecv）传递",
        )


def _diagnose(got, want, inputs, rank, world):
    if torch.allclose(got, inputs[rank]):
        return say(" (the tensor is unchanged: write the sum into it in place, as dist.all_reduce does)",
                   "（tensor 没有变化：要像 dist.all_reduce 那样原地写入求和结果）")
    if torch.allclose(got, want / world):
        return say(" (this is the average: all_reduce's default op is SUM)", "（这是平均值：all_reduce 默认的 op 是 SUM）")
    got_chunks, want_chunks = _tensor_split(got, world), _tensor_split(want, world)
    good = [i for i in range(world) if torch.allclose(got_chunks[i], want_chunks[i], rtol=1e-9, atol=1e-9)]
    bad = [i for i in range(world) if i not in good]
    if _close(got, _after_reduce_scatter(inputs, rank, world)):
        return say(
            f" (only chunk {good[0]} holds the full sum and the others hold the partial sums the reduce-scatter "
            "leaves: the all-gather that passes complete chunks around the ring is missing)",
            f"（只有第 {good[0]} 块是完整的和，其余块是 reduce-scatter 留下的部分和：缺少把完整块沿环传递的 all-gather）",
        )
    sources = [_which_ranks(got_chunks[i], [_tensor_split(x, world)[i] for x in inputs]) for i in bad]
    strays = [i for i, ranks in zip(bad, sources) if ranks is None]
    held = [
        say(f"chunk {i} holds the sum over ranks {ranks} only", f"第 {i} 块只是 rank {ranks} 的和")
        for i, ranks in zip(bad, sources)
        if ranks is not None
    ]
    if strays:
        held.append(say(f"chunks {strays} are no sum of any ranks' inputs", f"第 {strays} 块不是任何几个 rank 输入之和"))
    right = (
        say(f"chunks {good} are right", f"第 {good} 块是对的") if good else say("no chunk is right", "没有一块是对的")
    )
    cause = (
        say(
            "; a chunk that is no sum of inputs was usually overwritten while an isend of it was still in flight "
            "(wait() before reusing it) or received into the wrong place",
            "；不是输入之和的块，通常是在它的 isend 还没完成时就被改写了（先 wait() 再复用），或者收到了错误的位置",
        )
        if strays
        else say(
            "; a chunk that misses ranks was overwritten instead of added to in the reduce-scatter, or the "
            "all-gather sent a chunk that was not complete yet",
            "；缺少某些 rank 的块，通常是 reduce-scatter 里用接收覆盖而不是相加，或者 all-gather 发出了还不完整的块",
        )
    )
    return say(" (", "（") + right + say("; ", "；") + say("; ", "；").join(held) + cause + say(")", "）")


def _close(a, b):
    return a.shape == b.shape and torch.allclose(a, b, rtol=1e-9, atol=1e-9)


def _after_reduce_scatter(inputs, rank, world):
    """What a rank holds after the reduce-scatter alone: chunk rank - k sums ranks rank, rank - 1, ..., rank - k."""
    chunks = [c.clone() for c in _tensor_split(inputs[rank].clone(), world)]
    for k in range(1, world):
        i = (rank - k) % world
        chunks[i] = sum(_tensor_split(inputs[(rank - j) % world], world)[i] for j in range(k + 1))
    return torch.cat(chunks)


def _which_ranks(got, parts):
    """The ranks whose chunks add up to `got`, or None when no set of ranks does."""
    world = len(parts)
    for mask in range(1, 1 << world):
        ranks = [r for r in range(world) if mask >> r & 1]
        if _close(got, sum(parts[r] for r in ranks)):
            return ranks
    return None


def _judge_values(reports, world, seed, n):
    _no_collectives(reports)
    inputs = [rank_input(r, world, seed, n) for r in range(world)]
    want = torch.stack(inputs).sum(0)
    for r in reports:
        got = r.result["tensor"]
        assert isinstance(got, torch.Tensor) and got.shape == want.shape, say(
            f"rank {r.rank}: the tensor changed shape", f"rank {r.rank}：tensor 的形状变了")
        if not torch.allclose(got, want, rtol=1e-9, atol=1e-9):
            returned = r.result["returned"]
            if returned is not None and returned.shape == want.shape and torch.allclose(returned, want):
                raise AssertionError(say(
                    f"rank {r.rank}: the sum was returned, but the tensor passed in was not changed: "
                    "like dist.all_reduce, write the result into the tensor in place",
                    f"rank {r.rank}：求和结果被 return 了，但传进来的 tensor 没有被修改：要像 dist.all_reduce 一样原地写回"))
            raise AssertionError(say(
                f"rank {r.rank} of {world}, {n} values: the result differs from dist.all_reduce's sum",
                f"{world} 个 rank 中的 rank {r.rank}，{n} 个值：结果与 dist.all_reduce 的求和不同",
            ) + _diagnose(got, want, inputs, r.rank, world))


def judge_1024(reports, world, seed):
    _judge_values(reports, world, seed, 1024)


def judge_10(reports, world, seed):
    _judge_values(reports, world, seed, 10)


def judge_traffic(reports, world, seed):
    _judge_values(reports, world, seed, 1024)
    nbytes = 1024 * 8
    ring = 2 * (world - 1) * nbytes // world
    for r in reports:
        sent = r.sent_p2p
        if sent > ring:
            times = sent / nbytes
            raise AssertionError(say(
                f"rank {r.rank} sent {sent} bytes; a ring sends 2(N-1)/N of the tensor, {ring} bytes "
                f"(N={world}, {nbytes} bytes). It sent {times:g} times the tensor: "
                + ("sending the whole tensor to every other rank moves N-1 times the data"
                   if abs(times - (world - 1)) < 1e-9 else "send chunks of 1/N, not whole tensors"),
                f"rank {r.rank} 发送了 {sent} 字节；ring 每个 rank 只发送 tensor 的 2(N-1)/N，即 {ring} 字节"
                f"（N={world}，tensor {nbytes} 字节）。它发送了 tensor 的 {times:g} 倍："
                + ("把整个 tensor 发给其他每个 rank，数据量是 N-1 倍"
                   if abs(times - (world - 1)) < 1e-9 else "应发送 1/N 大小的块，而不是整个 tensor"),
            ))
        assert sent == ring, say(
            f"rank {r.rank} sent {sent} bytes with send/isend; a ring sends {ring} (2(N-1)/N of {nbytes})",
            f"rank {r.rank} 用 send/isend 发送了 {sent} 字节；ring 应发送 {ring} 字节（{nbytes} 的 2(N-1)/N）",
        )
