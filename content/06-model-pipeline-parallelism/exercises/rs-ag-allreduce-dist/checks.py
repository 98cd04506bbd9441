"""All-reduce composed from reduce-scatter and all-gather on real ranks: every rank's input comes from the
seed, the judge sums them itself, and each rank must use one reduce-scatter and one all-gather."""

import torch

from quiz.grader.say import say

_Generator, _randn = torch.Generator, torch.randn
REDUCE_SCATTER = ("reduce_scatter_single", "reduce_scatter_tensor", "reduce_scatter")
ALL_GATHER = ("all_gather_single", "all_gather_into_tensor", "all_gather")


def rank_input(rank, world, seed, n):
    gen = _Generator()
    gen.manual_seed(seed * 8 + rank)
    return _randn(n, generator=gen, dtype=torch.float64)


def _run(entry, rank, world, seed, n):
    tensor = rank_input(rank, world, seed, n)
    entry(tensor)
    return tensor


def run_1024(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 1024)


def run_10(entry, rank, world, seed):
    return _run(entry, rank, world, seed, 10)


def _calls(r, names):
    return sum(r.calls.get(n, 0) for n in names)


def _judge(reports, world, seed, n):
    inputs = [rank_input(r, world, seed, n) for r in range(world)]
    want = torch.stack(inputs).sum(0)
    for r in reports:
        if r.calls.get("all_reduce"):
            raise AssertionError(say(
                f"rank {r.rank} called all_reduce: compose it from one reduce-scatter and one all-gather instead",
                f"rank {r.rank} 调用了 all_reduce：应改为由一次 reduce-scatter 和一次 all-gather 组合而成"))
        got = r.result
        assert isinstance(got, torch.Tensor) and got.shape == want.shape, say(
            f"rank {r.rank}: the tensor changed shape (strip the padding before copying back)",
            f"rank {r.rank}：tensor 的形状变了（拷回之前要去掉 padding）")
        if torch.allclose(got, want, rtol=1e-9, atol=1e-9):
            continue
        note = ""
        if torch.allclose(got, inputs[r.rank]):
            note = say(" (the tensor is unchanged: copy the gathered result back into it)",
                       "（tensor 没有变化：要把 gather 回来的结果拷回 tensor）")
        elif torch.allclose(got, want / world):
            note = say(" (this is the average: the sum was asked for)", "（这是平均值：题目要求的是和）")
        elif torch.allclose(got, want, rtol=1e-5, atol=1e-5):
            note = say(" (right only to about float32 precision: build the padded, shard and gathered buffers with "
                       "the tensor's dtype, float64 here; torch.zeros and torch.empty default to float32)",
                       "（只在 float32 精度上是对的：补齐、shard 和 gather 用的缓冲区要用 tensor 自己的 dtype，这里是 "
                       "float64；torch.zeros 和 torch.empty 默认是 float32）")
        elif n % world and torch.allclose(got[: n - n % world], want[: n - n % world], rtol=1e-9, atol=1e-9):
            tail = say("value is" if n % world == 1 else f"{n % world} values are", "")
            note = say(f" (only the last {tail} wrong: {n} does not divide by {world}; pad the "
                       "tensor to a multiple of the world size before the reduce-scatter)",
                       f"（只有最后 {n % world} 个值错了：{n} 不能被 {world} 整除；reduce-scatter 之前要把 tensor "
                       "补齐到 world size 的整数倍）")
        else:
            shard = -(-n // world)
            own = [k for k in range(world) if torch.allclose(got[k * shard:(k + 1) * shard],
                                                              inputs[k][k * shard:(k + 1) * shard])]
            if own:
                note = say(f" (shards {own} hold only one rank's own values: the all-gather sent the input's "
                           "piece, not the reduce-scatter's output)",
                           f"（第 {own} 块只有某一个 rank 自己的值：all-gather 发出的是输入的那一块，而不是 "
                           "reduce-scatter 的输出）")
        raise AssertionError(say(f"rank {r.rank} of {world}, {n} values: the result is not the sum over ranks",
                                 f"{world} 个 rank 中的 rank {r.rank}，{n} 个值：结果不是各 rank 之和") + note)
    for r in reports:
        rs, ag = _calls(r, REDUCE_SCATTER), _calls(r, ALL_GATHER)
        assert (rs, ag) == (1, 1), say(
            f"rank {r.rank} made {rs} reduce-scatter and {ag} all-gather calls: one of each is the whole algorithm",
            f"rank {r.rank} 调用了 {rs} 次 reduce-scatter、{ag} 次 all-gather：各一次就是整个算法")


def judge_1024(reports, world, seed):
    _judge(reports, world, seed, 1024)


def judge_10(reports, world, seed):
    _judge(reports, world, seed, 10)
