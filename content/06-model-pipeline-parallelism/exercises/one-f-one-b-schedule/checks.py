"""Tests for a 1F1B schedule: every op once, no deadlock, in-flight micro-batches, makespan, the exact order."""

from quiz.grader.say import say

CASES = [(4, 8), (4, 4), (2, 6), (5, 3), (1, 3), (8, 16)]


def _get(entry, p, m):
    sched = entry(p, m)
    assert isinstance(sched, (list, tuple)) and len(sched) == p, say(
        f"p={p}, m={m}: expected a list of {p} op lists (one per stage), got "
        + (f"{len(sched)} lists" if isinstance(sched, (list, tuple)) else type(sched).__name__),
        f"p={p}，m={m}：应返回 {p} 个 op 列表组成的列表（每个 stage 一个），实际是 "
        + (f"{len(sched)} 个列表" if isinstance(sched, (list, tuple)) else type(sched).__name__),
    )
    out = []
    for s, ops in enumerate(sched):
        clean = []
        for op in ops:
            assert isinstance(op, (tuple, list)) and len(op) == 2 and op[0] in ("F", "B"), say(
                f"p={p}, m={m}: stage {s} has op {op!r}; ops are tuples ('F', i) or ('B', i)",
                f"p={p}，m={m}：stage {s} 里有 op {op!r}；op 应是元组 ('F', i) 或 ('B', i)",
            )
            clean.append((op[0], int(op[1])))
        out.append(clean)
    return out


def simulate(sched, p, m, t_f=1.0, t_b=2.0):
    """Run each stage's list in order, each op as early as possible. Returns (makespan, None) or (None, why)."""
    end = {}
    free = [0.0] * p
    pos = [0] * p
    total = sum(len(ops) for ops in sched)
    done = 0
    while done < total:
        progressed = False
        for s in range(p):
            while pos[s] < len(sched[s]):
                kind, i = sched[s][pos[s]]
                if kind == "F":
                    dep = ("F", s - 1, i) if s > 0 else None
                else:
                    dep = ("B", s + 1, i) if s < p - 1 else ("F", s, i)
                if dep is not None and dep not in end:
                    break
                start = max(free[s], end[dep] if dep else 0.0)
                free[s] = end[(kind, s, i)] = start + (t_f if kind == "F" else t_b)
                pos[s] += 1
                done += 1
                progressed = True
        if not progressed:
            waiting = [say(f"stage {s} waits to run {sched[s][pos[s]][0]}{sched[s][pos[s]][1]}",
                           f"stage {s} 在等待运行 {sched[s][pos[s]][0]}{sched[s][pos[s]][1]}")
                       for s in range(p) if pos[s] < len(sched[s])]
            return None, say("; ", "；").join(waiting[:4])
    return max(free), None


def test_every_op_once_in_order(entry):
    for p, m in CASES:
        sched = _get(entry, p, m)
        for s, ops in enumerate(sched):
            fs = [i for k, i in ops if k == "F"]
            bs = [i for k, i in ops if k == "B"]
            assert fs == list(range(m)), say(
                f"p={p}, m={m}: stage {s} runs forwards {fs}, expected each micro-batch once in order {list(range(m))}"
                + ("; the warm-up count must be capped at m" if len(fs) > m else ""),
                f"p={p}，m={m}：stage {s} 运行的 forward 是 {fs}，应为每个 micro-batch 按顺序各一次 {list(range(m))}"
                + ("；warm-up 的次数不能超过 m" if len(fs) > m else ""),
            )
            assert bs == list(range(m)), say(
                f"p={p}, m={m}: stage {s} runs backwards {bs}, expected each micro-batch once in order {list(range(m))}",
                f"p={p}，m={m}：stage {s} 运行的 backward 是 {bs}，应为每个 micro-batch 按顺序各一次 {list(range(m))}",
            )


def test_no_deadlock(entry):
    for p, m in CASES:
        sched = _get(entry, p, m)
        span, why = simulate(sched, p, m)
        assert why is None, say(
            f"p={p}, m={m}: the schedule deadlocks: {why}. In the steady state a stage runs its next forward "
            "before the backward: the backward of the oldest micro-batch needs gradients that come back only "
            "after later stages have run their own forwards",
            f"p={p}，m={m}：调度死锁了：{why}。稳态阶段，一个 stage 先跑下一个 forward 再跑 backward："
            "最早那个 micro-batch 的 backward 需要的梯度，要等后面的 stage 跑完它们自己的 forward 才会传回来",
        )


def test_in_flight_bound(entry):
    for p, m in CASES:
        sched = _get(entry, p, m)
        for s, ops in enumerate(sched):
            live, peak = 0, 0
            for k, _ in ops:
                live += 1 if k == "F" else -1
                peak = max(peak, live)
            want = min(p - s, m)
            assert peak == want, say(
                f"p={p}, m={m}: stage {s} holds activations of up to {peak} micro-batches at once (forwards done, "
                f"backward not yet), expected min(p - s, m) = {want}; warm-up is p - s - 1 forwards, so stage 0 keeps "
                f"at most p in flight and the last stage 1",
                f"p={p}，m={m}：stage {s} 同时最多持有 {peak} 个 micro-batch 的激活（forward 已做、backward 未做），"
                f"应为 min(p - s, m) = {want}；warm-up 是 p - s - 1 个 forward，所以 stage 0 最多有 p 个在途，"
                f"最后一个 stage 只有 1 个",
            )


def test_makespan_equals_gpipe(entry):
    for p, m in CASES:
        sched = _get(entry, p, m)
        span, why = simulate(sched, p, m, 1.0, 2.0)
        assert why is None, say(f"p={p}, m={m}: the schedule deadlocks: {why}", f"p={p}，m={m}：调度死锁了：{why}")
        want = (m + p - 1) * 3.0
        assert abs(span - want) < 1e-9, say(
            f"p={p}, m={m}, t_f=1, t_b=2: the schedule takes {span:g}, expected (m+p-1)(t_f+t_b) = {want:g}; "
            "1F1B keeps GPipe's bubble and cuts only the activation memory",
            f"p={p}，m={m}，t_f=1，t_b=2：调度耗时 {span:g}，应为 (m+p-1)(t_f+t_b) = {want:g}；"
            "1F1B 的 bubble 与 GPipe 相同，省下的只是激活内存",
        )


def test_exact_order(entry):
    got = _get(entry, 4, 8)
    want = [
        "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7",
        "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7",
        "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 B7",
        "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7",
    ]
    for s in range(4):
        text = " ".join(f"{k}{i}" for k, i in got[s])
        assert text == want[s], say(f"p=4, m=8, stage {s}: expected\n  {want[s]}\ngot\n  {text}",
                                    f"p=4，m=8，stage {s}：应为\n  {want[s]}\n实际是\n  {text}")
