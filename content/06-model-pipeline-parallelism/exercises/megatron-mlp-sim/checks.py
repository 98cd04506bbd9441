"""The unsplit MLP and the tests: output, per-rank partial sums, and gradients of all five inputs."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say

NAMES = ("x", "w1", "b1", "w2", "b2")


def mlp(x, w1, b1, w2, b2):
    return F.gelu(x @ w1 + b1) @ w2 + b2


def make(n, d, ffn, seed):
    gen = torch.Generator().manual_seed(seed)
    shapes = [(n, d), (d, ffn), (ffn,), (ffn, d), (d,)]
    return [(torch.rand(s, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_(True) for s in shapes]


def _call(entry, tensors, tp):
    res = entry(*tensors, tp)
    assert isinstance(res, (tuple, list)) and len(res) == 2, say("megatron_mlp should return a pair (out, partials)",
                                                                                 "megatron_mlp 应返回二元组 (out, partials)")
    out, partials = res
    assert isinstance(out, torch.Tensor), say(f"out should be a tensor, got {type(out).__name__}",
                                              f"out 应是 tensor，实际是 {type(out).__name__}")
    assert isinstance(partials, (list, tuple)) and len(partials) == tp, say(
        f"partials should be a list of tp={tp} tensors (one per rank), got "
        + (f"{len(partials)}" if isinstance(partials, (list, tuple)) else type(partials).__name__),
        f"partials 应是 tp={tp} 个 tensor 组成的列表（每个 rank 一个），实际是 "
        + (f"{len(partials)} 个" if isinstance(partials, (list, tuple)) else type(partials).__name__),
    )
    return out, list(partials)


def _where(a, b):
    diff = (a - b).abs()
    i = int(diff.argmax())
    idx = tuple(int(k) for k in torch.unravel_index(torch.tensor(i), a.shape))
    return idx, float(b.reshape(-1)[i]), float(a.reshape(-1)[i]), float(diff.max())


def test_output_matches_unsplit(entry):
    for tp, (n, d, ffn) in ((2, (5, 6, 16)), (4, (3, 4, 8)), (1, (2, 3, 4))):
        ts = make(n, d, ffn, seed=tp)
        out, _ = _call(entry, ts, tp)
        want = mlp(*ts)
        assert tuple(out.shape) == tuple(want.shape), say(f"tp={tp}: out has shape {tuple(out.shape)}, expected {tuple(want.shape)}",
                                                          f"tp={tp}：out 的形状是 {tuple(out.shape)}，应为 {tuple(want.shape)}")
        if not torch.allclose(out, want, atol=1e-10, rtol=1e-8):
            idx, e, g, m = _where(out, want)
            extra = ""
            if torch.allclose(out, want + (tp - 1) * ts[4], atol=1e-10):
                extra = say(f": that is b2 counted tp={tp} times; add it once, after the all-reduce",
                            f"：这是把 b2 加了 tp={tp} 次；应在 all-reduce 之后只加一次")
            elif torch.allclose(out * tp, want + (tp - 1) * ts[4], atol=1e-10) or torch.allclose(out, (want - ts[4]) / tp + ts[4], atol=1e-10):
                extra = say(": that is the mean of the partials; the row-parallel all-reduce sums them",
                            "：这是各 partial 的平均值；row-parallel 的 all-reduce 是对它们求和")
            assert False, say(f"tp={tp}: out{list(idx)} should be {e:.6g} (the unsplit MLP) but is {g:.6g}; largest difference {m:.3g}{extra}",
                              f"tp={tp}：out{list(idx)} 应为 {e:.6g}（未切分的 MLP），实际是 {g:.6g}；最大差值 {m:.3g}{extra}")


def test_partials_per_rank(entry):
    tp, (n, d, ffn) = 4, (3, 5, 12)
    ts = make(n, d, ffn, seed=9)
    x, w1, b1, w2, b2 = ts
    _, partials = _call(entry, ts, tp)
    size = ffn // tp
    for r, part in enumerate(partials):
        cols = slice(r * size, (r + 1) * size)
        want = F.gelu(x @ w1[:, cols] + b1[cols]) @ w2[cols, :]
        assert tuple(part.shape) == (n, d), say(f"rank {r}'s partial has shape {tuple(part.shape)}, expected ({n}, {d})",
                                                f"rank {r} 的 partial 形状是 {tuple(part.shape)}，应为 ({n}, {d})")
        if not torch.allclose(part, want, atol=1e-10, rtol=1e-8):
            extra = ""
            if torch.allclose(part, want + b2, atol=1e-10):
                extra = say(": it includes b2, which belongs after the all-reduce", "：它包含了 b2，而 b2 应在 all-reduce 之后再加")
            assert False, say(
                f"rank {r}'s partial (tp={tp}, hidden {ffn}) should be gelu(x @ w1[:, {r * size}:{(r + 1) * size}] + "
                f"b1[{r * size}:{(r + 1) * size}]) @ w2[{r * size}:{(r + 1) * size}, :], but differs by up to "
                f"{float((part - want).abs().max()):.3g}{extra}; rank r owns hidden units r*F/tp to (r+1)*F/tp, and GeLU "
                "must act on complete hidden values, which only a column split of w1 gives without communication",
                f"rank {r} 的 partial（tp={tp}，hidden {ffn}）应为 gelu(x @ w1[:, {r * size}:{(r + 1) * size}] + "
                f"b1[{r * size}:{(r + 1) * size}]) @ w2[{r * size}:{(r + 1) * size}, :]，但最多相差 "
                f"{float((part - want).abs().max()):.3g}{extra}；rank r 负责 hidden units r*F/tp 到 (r+1)*F/tp，而 GeLU "
                "必须作用在完整的 hidden 值上，只有对 w1 按列切分才能做到这一点而无需通信",
            )


def test_gradients_match_unsplit(entry):
    for tp, (n, d, ffn) in ((2, (4, 6, 10)), (4, (3, 5, 8))):
        ts = make(n, d, ffn, seed=20 + tp)
        out, _ = _call(entry, ts, tp)
        gen = torch.Generator().manual_seed(5)
        g = torch.rand(out.shape, generator=gen, dtype=torch.float64) * 2 - 1
        assert out.requires_grad, say("out has no autograd graph: keep the weight shards as slices (views) of w1, b1, w2 so gradients reach them",
                                      "out 没有 autograd 计算图：权重分片要保持为 w1、b1、w2 的切片（view），梯度才能传到它们")
        got = torch.autograd.grad(out, ts, g, allow_unused=True)
        want = torch.autograd.grad(mlp(*ts), ts, g)
        for name, a, b in zip(NAMES, got, want):
            assert a is not None, say(
                f"tp={tp}: no gradient reached {name}; shards made with .detach(), .clone().detach() or torch.tensor(...) "
                "cut the graph: slice the full tensors instead",
                f"tp={tp}：没有梯度传到 {name}；用 .detach()、.clone().detach() 或 torch.tensor(...) 做的分片"
                "会切断计算图：应直接对完整 tensor 做切片",
            )
            if not torch.allclose(a, b, atol=1e-10, rtol=1e-8):
                idx, e, gg, m = _where(a, b)
                assert False, say(
                    f"tp={tp}: the gradient of {name}{list(idx)} should be {e:.6g} (unsplit MLP) but is {gg:.6g}; "
                    f"largest difference {m:.3g}",
                    f"tp={tp}：{name}{list(idx)} 的梯度应为 {e:.6g}（未切分的 MLP），实际是 {gg:.6g}；"
                    f"最大差值 {m:.3g}",
                )
