"""An independent reference for DistributedSampler's indices, and coverage checks across ranks."""

import math

import torch

from quiz.grader.say import say

_randperm = torch.randperm  # taken when the checks load, before any learner code runs
_Generator = torch.Generator


def reference(n, replicas, rank, epoch=0, shuffle=True, seed=0, drop_last=False):
    per_rank = n // replicas if (drop_last and n % replicas) else math.ceil(n / replicas)
    total = per_rank * replicas
    if shuffle:
        gen = _Generator()
        gen.manual_seed(seed + epoch)
        order = _randperm(n, generator=gen).tolist()
    else:
        order = list(range(n))
    if drop_last:
        order = order[:total]
    else:
        while len(order) < total:
            order += order[: total - len(order)]
    return order[rank::replicas][:per_rank]


def _call(entry, n, replicas, rank, **kw):
    got = entry(n, replicas, rank, **kw)
    try:
        return [int(i) for i in got]
    except TypeError:
        raise AssertionError(say(f"sampler_indices should return a list of ints, got {type(got).__name__}",
                                 f"sampler_indices 应返回 int 列表，实际返回了 {type(got).__name__}")) from None


def _compare(entry, n, replicas, note="", **kw):
    for rank in range(replicas):
        got = _call(entry, n, replicas, rank, **kw)
        want = reference(n, replicas, rank, **kw)
        opts = ", ".join(f"{k}={v}" for k, v in kw.items())
        assert got == want, say(
            f"dataset of {n}, {replicas} replicas, rank {rank}{', ' + opts if opts else ''}: expected {want}, got {got}{note}",
            f"数据集大小 {n}，{replicas} 个 replica，rank {rank}{'，' + opts if opts else ''}：应为 {want}，实际是 {got}{note}",
        )


def test_strided_split_without_shuffle(entry):
    _compare(entry, 12, 4, note=say(" (rank r takes every num_replicas-th index starting at r, not a contiguous chunk)",
                                      "（rank r 从 r 开始每隔 num_replicas 取一个索引，而不是取一段连续的 chunk）"),
             shuffle=False)


def test_padding_repeats_the_start(entry):
    _compare(entry, 10, 4, note=say(" (10 indices padded to 12 with the first 2, so every rank gets 3)",
                                      "（10 个索引用开头的 2 个补到 12 个，每个 rank 分到 3 个）"), shuffle=False)


def test_padding_longer_than_dataset(entry):
    _compare(entry, 2, 5, note=say(" (2 indices padded to 5 by cycling through them: 0, 1, 0, 1, 0)",
                                    "（2 个索引循环补到 5 个：0, 1, 0, 1, 0）"), shuffle=False)


def test_drop_last(entry):
    _compare(entry, 10, 4, note=say(" (drop_last keeps floor(10 / 4) = 2 per rank: indices 0-7)",
                                      "（drop_last 时每个 rank 保留 floor(10 / 4) = 2 个：索引 0-7）"), shuffle=False,
             drop_last=True)
    _compare(entry, 12, 4, shuffle=False, drop_last=True)


def test_shuffle_matches_seed_plus_epoch(entry):
    for epoch in (0, 1, 5):
        _compare(entry, 23, 4, note=say(" (permutation from torch.randperm with a Generator seeded with seed + epoch)",
                                          "（排列来自 torch.randperm，Generator 以 seed + epoch 为种子）"),
                 epoch=epoch, seed=42)


def test_set_epoch_reshuffles(entry):
    first = _call(entry, 50, 2, 0, epoch=0, seed=7)
    second = _call(entry, 50, 2, 0, epoch=1, seed=7)
    assert first != second, say(
        "epoch 0 and epoch 1 gave rank 0 the same indices: the permutation must be seeded with seed + epoch, "
        "otherwise every epoch sees the data in the same order (what forgetting sampler.set_epoch does)",
        "epoch 0 和 epoch 1 给 rank 0 的索引相同：排列必须以 seed + epoch 为种子，"
        "否则每个 epoch 看到的数据顺序都一样（忘了调用 sampler.set_epoch 就是这个后果）",
    )


def test_ranks_cover_dataset_disjointly(entry):
    n, replicas = 103, 8
    for epoch in (0, 3):
        parts = [_call(entry, n, replicas, r, epoch=epoch, seed=1) for r in range(replicas)]
        lengths = {len(p) for p in parts}
        assert lengths == {math.ceil(n / replicas)}, say(
            f"every rank must get the same number of samples (ceil({n}/{replicas}) = {math.ceil(n / replicas)}), "
            f"otherwise ranks run different numbers of steps and collectives hang; got lengths {[len(p) for p in parts]}",
            f"每个 rank 必须分到相同数量的样本（ceil({n}/{replicas}) = {math.ceil(n / replicas)}），"
            f"否则各 rank 跑的 step 数不同，集合通信会卡住；实际长度为 {[len(p) for p in parts]}",
        )
        seen = [i for p in parts for i in p]
        assert set(seen) == set(range(n)), say(
            f"epoch {epoch}: the ranks together should cover all {n} indices; missing {sorted(set(range(n)) - set(seen))[:10]}",
            f"epoch {epoch}：所有 rank 合起来应覆盖全部 {n} 个索引；缺少 {sorted(set(range(n)) - set(seen))[:10]}",
        )
        padding = len(seen) - n
        assert len(seen) - len(set(seen)) == padding, say(
            f"epoch {epoch}: only the {padding} padding indices may appear twice; "
            f"{len(seen) - len(set(seen))} duplicates found",
            f"epoch {epoch}：只有 {padding} 个 padding 索引可以出现两次；"
            f"却发现了 {len(seen) - len(set(seen))} 个重复",
        )
