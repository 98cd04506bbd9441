"""Shards of one batch with different sizes; the reference is statistics over the concatenated batch."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say


def _shards(sizes, seed, channels=3):
    gen = torch.Generator().manual_seed(seed)
    shards = []
    for i, n in enumerate(sizes):
        # each rank's data has its own offset, so the rank means differ
        x = torch.randn(n, channels, 4, 4, generator=gen, dtype=torch.float64) * (1 + i) + 3.0 * i
        shards.append(x)
    return shards


def _local(x):
    n = x.shape[0] * x.shape[2] * x.shape[3]
    if n == 0:
        nan = torch.full((x.shape[1],), float("nan"), dtype=torch.float64)
        return 0, nan, nan
    return n, x.mean(dim=(0, 2, 3)), x.var(dim=(0, 2, 3), unbiased=False)


def _merge(entry, shards):
    stats = [_local(x) for x in shards]
    out = entry([s[0] for s in stats], [s[1] for s in stats], [s[2] for s in stats])
    assert isinstance(out, tuple) and len(out) == 4, say(
        f"merge_bn_stats should return (total, mean, var, unbiased_var), got {type(out).__name__}",
        f"merge_bn_stats 应返回 (total, mean, var, unbiased_var)，实际返回了 {type(out).__name__}",
    )
    return out


LABEL_ZH = {"mean": "均值", "biased var": "有偏方差", "unbiased var": "无偏方差"}


def _check(entry, sizes, seed, what):
    shards = _shards(sizes, seed)
    total, mean, var, unbiased = _merge(entry, shards)
    full = torch.cat(shards)
    want_total = full.shape[0] * 16
    assert int(total) == want_total, say(f"{what}: expected total {want_total} samples per channel, got {total}",
                                         f"{what}：每个 channel 的样本总数应为 {want_total}，实际是 {total}")
    checks = (("mean", mean, full.mean(dim=(0, 2, 3))),
              ("biased var", var, full.var(dim=(0, 2, 3), unbiased=False)),
              ("unbiased var", unbiased, full.var(dim=(0, 2, 3), unbiased=True)))
    for label, got, want in checks:
        got = torch.as_tensor(got, dtype=torch.float64)
        assert got.shape == want.shape and torch.allclose(got, want, atol=1e-10, rtol=1e-10), say(
            f"{what}: the {label} should equal the {label} over the concatenated batch, "
            f"expected {[round(v, 6) for v in want.tolist()]}, got {[round(v, 6) for v in got.reshape(-1).tolist()]}",
            f"{what}：{LABEL_ZH[label]}应等于拼接后整个 batch 的{LABEL_ZH[label]}，"
            f"应为 {[round(v, 6) for v in want.tolist()]}，实际是 {[round(v, 6) for v in got.reshape(-1).tolist()]}",
        )


def test_equal_shards(entry):
    _check(entry, [4, 4], 0, say("2 ranks with 4 images each", "2 个 rank，每个 4 张图"))


def test_unequal_shards(entry):
    _check(entry, [1, 6, 3], 1, say("3 ranks with 1, 6 and 3 images (counts 16, 96, 48 per channel)",
                                    "3 个 rank，分别有 1、6、3 张图（每个 channel 的计数为 16、96、48）"))


def test_empty_rank_is_skipped(entry):
    _check(entry, [2, 0, 5], 2, say("3 ranks where rank 1 has no images (its mean and var are NaN)",
                                    "3 个 rank，其中 rank 1 没有图（它的 mean 和 var 是 NaN）"))


def test_normalised_output_matches_batchnorm(entry):
    shards = _shards([2, 5], 3)
    _, mean, var, _ = _merge(entry, shards)
    full = torch.cat(shards)
    eps = 1e-5
    mean = torch.as_tensor(mean, dtype=torch.float64).reshape(1, -1, 1, 1)
    var = torch.as_tensor(var, dtype=torch.float64).reshape(1, -1, 1, 1)
    got = (full - mean) / torch.sqrt(var + eps)
    want = F.batch_norm(full, None, None, training=True, eps=eps)
    assert torch.allclose(got, want, atol=1e-9), say(
        "normalising the whole batch with your merged mean and var should reproduce F.batch_norm over the concatenated "
        f"batch (training mode, which uses the biased variance); largest difference {float((got - want).abs().max()):.3g}",
        "用你合并出的 mean 和 var 对整个 batch 做归一化，结果应与 F.batch_norm 在拼接后 batch 上的结果相同"
        f"（training 模式，用的是有偏方差）；最大差值 {float((got - want).abs().max()):.3g}",
    )


def test_running_var_update(entry):
    shards = _shards([3, 1], 4)
    _, mean, _, unbiased = _merge(entry, shards)
    full = torch.cat(shards)
    rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    F.batch_norm(full, rm, rv, training=True, momentum=0.1)
    got_rv = 0.9 * 1.0 + 0.1 * torch.as_tensor(unbiased, dtype=torch.float64)
    got_rm = 0.1 * torch.as_tensor(mean, dtype=torch.float64)
    assert torch.allclose(got_rm, rm, atol=1e-10) and torch.allclose(got_rv, rv, atol=1e-10), say(
        "running_var = 0.9 * running_var + 0.1 * unbiased_var should match BatchNorm's running_var after one step "
        f"(BatchNorm uses the unbiased variance there): expected {[round(v, 6) for v in rv.tolist()]}, "
        f"got {[round(v, 6) for v in got_rv.tolist()]}",
        "running_var = 0.9 * running_var + 0.1 * unbiased_var 应与 BatchNorm 走一步之后的 running_var 相同"
        f"（BatchNorm 在这里用的是无偏方差）：应为 {[round(v, 6) for v in rv.tolist()]}，"
        f"实际是 {[round(v, 6) for v in got_rv.tolist()]}",
    )
