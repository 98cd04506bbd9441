"""Tests for the GPipe simulator: a valid timeline, the makespan, and the bubble fraction (p-1)/(m+p-1)."""

CASES = [(4, 8, 1.0, 2.0), (2, 1, 1.0, 2.0), (3, 5, 1.0, 1.0), (8, 32, 0.5, 1.25), (1, 4, 1.0, 2.0), (5, 3, 2.0, 3.0)]
EPS = 1e-9


def _run(entry, p, m, t_f, t_b):
    res = entry(p, m, t_f, t_b)
    assert isinstance(res, dict), f"simulate_gpipe should return a dict, got {type(res).__name__}"
    for key in ("forward", "backward", "makespan", "bubble_fraction"):
        assert key in res, f"the result has no key {key!r} (it has {sorted(res)})"
    for key in ("forward", "backward"):
        grid = res[key]
        assert len(grid) == p and all(len(row) == m for row in grid), (
            f"p={p}, m={m}: {key} should be {p} lists (one per stage) of {m} start times"
        )
    return res


def test_timeline_is_valid(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        F, B = res["forward"], res["backward"]
        tag = f"p={p}, m={m}, t_f={t_f}, t_b={t_b}"
        for s in range(p):
            for i in range(m):
                assert F[s][i] >= -EPS, f"{tag}: F(stage {s}, micro-batch {i}) starts at {F[s][i]} < 0"
                if s > 0:
                    assert F[s][i] >= F[s - 1][i] + t_f - EPS, (
                        f"{tag}: F(stage {s}, mb {i}) starts at {F[s][i]:g}, before F(stage {s - 1}, mb {i}) ends at "
                        f"{F[s - 1][i] + t_f:g}; a stage needs the previous stage's activations"
                    )
                if s < p - 1:
                    assert B[s][i] >= B[s + 1][i] + t_b - EPS, (
                        f"{tag}: B(stage {s}, mb {i}) starts at {B[s][i]:g}, before B(stage {s + 1}, mb {i}) ends at "
                        f"{B[s + 1][i] + t_b:g}; a stage needs the gradient from the next stage"
                    )
                else:
                    assert B[s][i] >= F[s][i] + t_f - EPS, f"{tag}: B(last stage, mb {i}) starts before its own forward ends"
            last_f = max(F[s]) + t_f
            first_b = min(B[s])
            assert first_b >= last_f - EPS, (
                f"{tag}: stage {s} starts a backward at {first_b:g} before its last forward ends at {last_f:g}; "
                "GPipe runs all m forwards, then flushes, then all backwards"
            )
            ops = sorted([(F[s][i], t_f, f"F{i}") for i in range(m)] + [(B[s][i], t_b, f"B{i}") for i in range(m)])
            for (a, da, na), (b, _, nb) in zip(ops, ops[1:]):
                assert b >= a + da - EPS, (
                    f"{tag}: stage {s} runs {na} from {a:g} to {a + da:g} but starts {nb} at {b:g}; "
                    "a stage computes one op at a time"
                )


def test_makespan(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        want = (m + p - 1) * (t_f + t_b)
        assert abs(res["makespan"] - want) < 1e-6, (
            f"p={p}, m={m}, t_f={t_f}, t_b={t_b}: makespan should be (m+p-1)(t_f+t_b) = {want:g} (until the last "
            f"backward ends), got {res['makespan']:g}"
        )


def test_bubble_fraction_matches_formula(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        want = (p - 1) / (m + p - 1)
        got = res["bubble_fraction"]
        note = " (that is (p-1)/m, the bubble relative to busy time, not to the total)" if p > 1 and abs(got - (p - 1) / m) < 1e-9 else ""
        assert abs(got - want) < 1e-6, (
            f"p={p}, m={m}, t_f={t_f}, t_b={t_b}: bubble fraction should be (p-1)/(m+p-1) = {want:.6g}, got {got:.6g}{note}"
        )


def test_bubble_is_measured_from_the_timeline(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        end = max(max(res["forward"][s][i] + t_f, res["backward"][s][i] + t_b) for s in range(p) for i in range(m))
        assert abs(res["makespan"] - end) < 1e-6, (
            f"p={p}, m={m}: the reported makespan {res['makespan']:g} should be when the last op ends in your timeline, {end:g}"
        )
        idle = 1 - p * m * (t_f + t_b) / (p * end)
        assert abs(res["bubble_fraction"] - idle) < 1e-6, (
            f"p={p}, m={m}: your timeline is idle {idle:.6g} of the time, but the reported bubble_fraction is "
            f"{res['bubble_fraction']:.6g}"
        )
