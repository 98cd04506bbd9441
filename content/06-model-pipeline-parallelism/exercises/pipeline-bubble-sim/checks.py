"""Tests for the GPipe simulator: a valid timeline, the makespan, and the bubble fraction (p-1)/(m+p-1)."""

from quiz.grader.say import say

CASES = [(4, 8, 1.0, 2.0), (2, 1, 1.0, 2.0), (3, 5, 1.0, 1.0), (8, 32, 0.5, 1.25), (1, 4, 1.0, 2.0), (5, 3, 2.0, 3.0)]
EPS = 1e-9


def _run(entry, p, m, t_f, t_b):
    res = entry(p, m, t_f, t_b)
    assert isinstance(res, dict), say(f"simulate_gpipe should return a dict, got {type(res).__name__}",
                                      f"simulate_gpipe 应返回 dict，实际返回了 {type(res).__name__}")
    for key in ("forward", "backward", "makespan", "bubble_fraction"):
        assert key in res, say(f"the result has no key {key!r} (it has {sorted(res)})",
                               f"结果里没有键 {key!r}（它有的是 {sorted(res)}）")
    for key in ("forward", "backward"):
        grid = res[key]
        assert len(grid) == p and all(len(row) == m for row in grid), say(
            f"p={p}, m={m}: {key} should be {p} lists (one per stage) of {m} start times",
            f"p={p}，m={m}：{key} 应是 {p} 个列表（每个 stage 一个），每个列表含 {m} 个开始时间",
        )
    return res


def test_timeline_is_valid(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        F, B = res["forward"], res["backward"]
        tag = say(f"p={p}, m={m}, t_f={t_f}, t_b={t_b}", f"p={p}，m={m}，t_f={t_f}，t_b={t_b}")
        for s in range(p):
            for i in range(m):
                assert F[s][i] >= -EPS, say(f"{tag}: F(stage {s}, micro-batch {i}) starts at {F[s][i]} < 0",
                                            f"{tag}：F(stage {s}, micro-batch {i}) 的开始时间 {F[s][i]} < 0")
                if s > 0:
                    assert F[s][i] >= F[s - 1][i] + t_f - EPS, say(
                        f"{tag}: F(stage {s}, mb {i}) starts at {F[s][i]:g}, before F(stage {s - 1}, mb {i}) ends at "
                        f"{F[s - 1][i] + t_f:g}; a stage needs the previous stage's activations",
                        f"{tag}：F(stage {s}, mb {i}) 在 {F[s][i]:g} 开始，早于 F(stage {s - 1}, mb {i}) 的结束时间 "
                        f"{F[s - 1][i] + t_f:g}；一个 stage 需要上一个 stage 的激活",
                    )
                if s < p - 1:
                    assert B[s][i] >= B[s + 1][i] + t_b - EPS, say(
                        f"{tag}: B(stage {s}, mb {i}) starts at {B[s][i]:g}, before B(stage {s + 1}, mb {i}) ends at "
                        f"{B[s + 1][i] + t_b:g}; a stage needs the gradient from the next stage",
                        f"{tag}：B(stage {s}, mb {i}) 在 {B[s][i]:g} 开始，早于 B(stage {s + 1}, mb {i}) 的结束时间 "
                        f"{B[s + 1][i] + t_b:g}；一个 stage 需要下一个 stage 传回的梯度",
                    )
                else:
                    assert B[s][i] >= F[s][i] + t_f - EPS, say(f"{tag}: B(last stage, mb {i}) starts before its own forward ends",
                                                               f"{tag}：B(最后一个 stage, mb {i}) 在它自己的 forward 结束之前就开始了")
            last_f = max(F[s]) + t_f
            first_b = min(B[s])
            assert first_b >= last_f - EPS, say(
                f"{tag}: stage {s} starts a backward at {first_b:g} before its last forward ends at {last_f:g}; "
                "GPipe runs all m forwards, then flushes, then all backwards",
                f"{tag}：stage {s} 在 {first_b:g} 开始 backward，早于它最后一个 forward 的结束时间 {last_f:g}；"
                "GPipe 先跑完全部 m 个 forward，flush 之后再跑所有 backward",
            )
            ops = sorted([(F[s][i], t_f, f"F{i}") for i in range(m)] + [(B[s][i], t_b, f"B{i}") for i in range(m)])
            for (a, da, na), (b, _, nb) in zip(ops, ops[1:]):
                assert b >= a + da - EPS, say(
                    f"{tag}: stage {s} runs {na} from {a:g} to {a + da:g} but starts {nb} at {b:g}; "
                    "a stage computes one op at a time",
                    f"{tag}：stage {s} 在 {a:g} 到 {a + da:g} 运行 {na}，却在 {b:g} 就开始了 {nb}；"
                    "一个 stage 同一时间只能算一个 op",
                )


def test_makespan(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        want = (m + p - 1) * (t_f + t_b)
        assert abs(res["makespan"] - want) < 1e-6, say(
            f"p={p}, m={m}, t_f={t_f}, t_b={t_b}: makespan should be (m+p-1)(t_f+t_b) = {want:g} (until the last "
            f"backward ends), got {res['makespan']:g}",
            f"p={p}，m={m}，t_f={t_f}，t_b={t_b}：makespan 应为 (m+p-1)(t_f+t_b) = {want:g}（到最后一个 "
            f"backward 结束为止），实际是 {res['makespan']:g}",
        )


def test_bubble_fraction_matches_formula(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        want = (p - 1) / (m + p - 1)
        got = res["bubble_fraction"]
        note = say(" (that is (p-1)/m, the bubble relative to busy time, not to the total)",
                   "（这是 (p-1)/m，即 bubble 相对于忙碌时间的比例，而不是相对于总时间）") if p > 1 and abs(got - (p - 1) / m) < 1e-9 else ""
        assert abs(got - want) < 1e-6, say(
            f"p={p}, m={m}, t_f={t_f}, t_b={t_b}: bubble fraction should be (p-1)/(m+p-1) = {want:.6g}, got {got:.6g}{note}",
            f"p={p}，m={m}，t_f={t_f}，t_b={t_b}：bubble 占比应为 (p-1)/(m+p-1) = {want:.6g}，实际是 {got:.6g}{note}",
        )


def test_bubble_is_measured_from_the_timeline(entry):
    for p, m, t_f, t_b in CASES:
        res = _run(entry, p, m, t_f, t_b)
        end = max(max(res["forward"][s][i] + t_f, res["backward"][s][i] + t_b) for s in range(p) for i in range(m))
        assert abs(res["makespan"] - end) < 1e-6, say(
            f"p={p}, m={m}: the reported makespan {res['makespan']:g} should be when the last op ends in your timeline, {end:g}",
            f"p={p}，m={m}：报告的 makespan {res['makespan']:g} 应等于你的时间线上最后一个 op 结束的时刻 {end:g}",
        )
        idle = 1 - p * m * (t_f + t_b) / (p * end)
        assert abs(res["bubble_fraction"] - idle) < 1e-6, say(
            f"p={p}, m={m}: your timeline is idle {idle:.6g} of the time, but the reported bubble_fraction is "
            f"{res['bubble_fraction']:.6g}",
            f"p={p}，m={m}：你的时间线有 {idle:.6g} 的时间处于空闲，但报告的 bubble_fraction 是 "
            f"{res['bubble_fraction']:.6g}",
        )
