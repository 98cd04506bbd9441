"""Tests for contiguous pipeline-stage partitioning: valid boundaries, optimal bottleneck (vs brute force), errors."""

import itertools
import random


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
    assert isinstance(bounds, (list, tuple)), f"{label}: expected a list of k + 1 boundaries, got {type(bounds).__name__}"
    bounds = [int(b) for b in bounds]
    n = len(costs)
    assert len(bounds) == k + 1, (
        f"{label}: expected k + 1 = {k + 1} boundaries (k = {k} stages), got {len(bounds)}: {bounds}"
        + ("; every GPU needs a stage, so split further even when fewer stages already meet the bottleneck" if len(bounds) < k + 1 else "")
    )
    assert bounds[0] == 0 and bounds[-1] == n, f"{label}: boundaries must start at 0 and end at n = {n}, got {bounds}"
    assert all(a < b for a, b in zip(bounds, bounds[1:])), f"{label}: boundaries must strictly increase (no empty stage), got {bounds}"
    got = max(stage_costs(costs, bounds))
    assert abs(got - want) < 1e-9, (
        f"{label}: your split {bounds} has stage costs {stage_costs(costs, bounds)}, bottleneck {got:g}; "
        f"the best possible bottleneck is {want:g}"
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
        _check(entry, costs, k, want, f"embedding 14, 12 blocks of 4, head 18, k={k}")


def test_fractional_costs(entry):
    costs = [1.5, 0.25, 3.0, 2.75, 0.5, 1.25, 4.0, 0.75]
    for k in (3, 5):
        want, _ = brute_force(costs, k)
        _check(entry, costs, k, want, f"costs={costs}, k={k}")


def test_edge_cases(entry):
    costs = [3, 1, 4, 1, 5]
    _check(entry, costs, 1, 14, "k = 1 (one stage holds every layer)")
    _check(entry, costs, 5, 5, "k = n (one layer per stage)")


def test_long_model(entry):
    rng = random.Random(3)
    costs = [rng.randint(5, 30) for _ in range(96)]
    costs[0], costs[-1] = 120, 150
    for k in (4, 8, 16):
        _check(entry, costs, k, optimal_bottleneck(costs, k), f"96 layers (embedding 120, head 150), k={k}")


def test_too_many_stages(entry):
    try:
        entry([1, 2, 3], 4)
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001
        assert False, f"k=4 stages for 3 layers should raise ValueError, got {type(exc).__name__}: {exc}"
    assert False, "k=4 stages for 3 layers should raise ValueError: some stage would be empty"
