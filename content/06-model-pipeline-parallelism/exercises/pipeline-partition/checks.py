"""Tests for contiguous pipeline-stage partitioning: valid boundaries, optimal bottleneck (vs brute force), errors."""

import itertools
import random

from quiz.grader.say import say


def stage_costs(costs, bounds):
    return [sum(costs[bounds[j]:bounds[j + 1]]) for j in range(len(bounds) - 1)]


def brute_force(costs, k):
    n = len(costs)
    best = None
    for cuts in itertools.combinations(range(1, n), k - 1):
        bounds = [0, *cuts, n]
        worst = max(stage_costs(costs, bounds))
        if best is None or worst < best[0]:
            best = (worst, bounds)
    return best


def optimal_bottleneck(costs, k):
    """The trusted answer for long inputs: binary search over candidate values with a greedy feasibility test."""
    def stages_needed(limit):
        count, run = 1, 0
        for c in costs:
            if c > limit:
                return None
            if run + c > limit:
                count, run = count + 1, c
            else:
                run += c
        return count

    candidates = sorted({sum(costs[a:b]) for a in range(len(costs)) for b in range(a + 1, len(costs) + 1)})
    lo, hi = 0, len(candidates) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        need = stages_needed(candidates[mid])
        if need is not None and need <= k:
            hi = mid
        else:
            lo = mid + 1
    return candidates[lo]


def _check(entry, costs, k, want, label):
    bounds = entry(list(costs), k)
    assert isinstance(bounds, (list, tuple)), say(f"{label}: expected a list of k + 1 boundaries, got {type(bounds).__name__}",
                                                  f"{label}：应返回 k + 1 个边界组成的列表，实际是 {type(bounds).__name__}")
    bounds = [int(b) for b in bounds]
    n = len(costs)
    assert len(bounds) == k + 1, say(
        f"{label}: expected k + 1 = {k + 1} boundaries (k = {k} stages), got {len(bounds)}: {bounds}"
        + ("; every GPU needs a stage, so split further even when fewer stages already meet the bottleneck" if len(bounds) < k + 1 else ""),
        f"{label}：应有 k + 1 = {k + 1} 个边界（k = {k} 个 stage），实际有 {len(bounds)} 个：{bounds}"
        + ("；每块 GPU 都要有一个 stage，所以即使更少的 stage 已经达到瓶颈值，也要继续切分" if len(bounds) < k + 1 else ""),
    )
    assert bounds[0] == 0 and bounds[-1] == n, say(f"{label}: boundaries must start at 0 and end at n = {n}, got {bounds}",
                                                   f"{label}：边界必须从 0 开始、到 n = {n} 结束，实际是 {bounds}")
    assert all(a < b for a, b in zip(bounds, bounds[1:])), say(
        f"{label}: boundaries must strictly increase (no empty stage), got {bounds}",
        f"{label}：边界必须严格递增（不能有空 stage），实际是 {bounds}")
    got = max(stage_costs(costs, bounds))
    assert abs(got - want) < 1e-9, say(
        f"{label}: your split {bounds} has stage costs {stage_costs(costs, bounds)}, bottleneck {got:g}; "
        f"the best possible bottleneck is {want:g}",
        f"{label}：你的切分 {bounds} 各 stage 开销为 {stage_costs(costs, bounds)}，瓶颈 {got:g}；"
        f"最优瓶颈是 {want:g}",
    )


def test_matches_brute_force(entry):
    rng = random.Random(7)
    for trial in range(40):
        n = rng.randint(2, 10)
        k = rng.randint(1, min(n, 5))
        costs = [rng.randint(1, 20) for _ in range(n)]
        want, _ = brute_force(costs, k)
        _check(entry, costs, k, want, f"costs={costs}, k={k}")


def test_heavy_embedding_and_head(entry):
    # embedding and LM head cost far more than a transformer block: equal layer counts are not balanced
    costs = [14.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 18.0]
    for k in (2, 4, 6):
        want, _ = brute_force(costs, k)
        _check(entry, costs, k, want, say(f"embedding 14, 12 blocks of 4, head 18, k={k}",
                                          f"embedding 14，12 个开销为 4 的 block，head 18，k={k}"))


def test_fractional_costs(entry):
    costs = [1.5, 0.25, 3.0, 2.75, 0.5, 1.25, 4.0, 0.75]
    for k in (3, 5):
        want, _ = brute_force(costs, k)
        _check(entry, costs, k, want, f"costs={costs}, k={k}")


def test_edge_cases(entry):
    costs = [3, 1, 4, 1, 5]
    _check(entry, costs, 1, 14, say("k = 1 (one stage holds every layer)", "k = 1（一个 stage 放下所有层）"))
    _check(entry, costs, 5, 5, say("k = n (one layer per stage)", "k = n（每个 stage 一层）"))


def test_long_model(entry):
    rng = random.Random(3)
    costs = [rng.randint(5, 30) for _ in range(96)]
    costs[0], costs[-1] = 120, 150
    for k in (4, 8, 16):
        _check(entry, costs, k, optimal_bottleneck(costs, k), say(f"96 layers (embedding 120, head 150), k={k}",
                                                                  f"96 层（embedding 120，head 150），k={k}"))


def test_too_many_stages(entry):
    try:
        entry([1, 2, 3], 4)
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001
        assert False, say(f"k=4 stages for 3 layers should raise ValueError, got {type(exc).__name__}: {exc}",
                          f"3 层切成 k=4 个 stage 应抛出 ValueError，实际抛出了 {type(exc).__name__}: {exc}")
    assert False, say("k=4 stages for 3 layers should raise ValueError: some stage would be empty",
                      "3 层切成 k=4 个 stage 应抛出 ValueError：必然有某个 stage 是空的")
