"""Union-based comm/compute overlap on small timelines, with the usual interval slips recomputed to name them."""

import math
import random

from quiz.grader.say import say

KEYS = ("comm_time", "exposed_comm", "overlap_fraction")


def _covered(intervals, point):
    return any(s < point < e for s, e in intervals)


def reference(compute, comm):
    """Sweep over elementary segments between all endpoints; independent of any merge logic."""
    cuts = sorted({x for iv in list(compute) + list(comm) for x in iv})
    comm_time = exposed = 0.0
    for a, b in zip(cuts, cuts[1:]):
        mid = (a + b) / 2
        if _covered(comm, mid):
            comm_time += b - a
            if not _covered(compute, mid):
                exposed += b - a
    return {"comm_time": comm_time, "exposed_comm": exposed,
            "overlap_fraction": (comm_time - exposed) / comm_time if comm_time else 0.0}


def _merge(intervals, key=lambda iv: iv[0], nested_ok=True):
    out = []
    for s, e in sorted(intervals, key=key):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e) if nested_ok else e
        else:
            out.append([s, e])
    return out


def _overlap(a, b):
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def _from_merged(compute_u, comm_u):
    comm_time = sum(e - s for s, e in comm_u)
    hidden = sum(_overlap(c, p) for c in comm_u for p in compute_u)
    return comm_time, comm_time - hidden


def _walk_both(a, b):
    """The two-pointer intersection with both pointers moved on every step."""
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        total += _overlap(a[i], b[j])
        i += 1
        j += 1
    return total


def _mistakes(compute, comm):
    """(field -> value, explanation) for each usual wrong answer."""
    out = []
    compute_u = _merge(compute)
    comm_sum = sum(e - s for s, e in comm)
    exposed_sum = sum((e - s) - sum(_overlap((s, e), p) for p in compute_u) for s, e in comm)
    out.append(({"comm_time": comm_sum, "exposed_comm": exposed_sum}, say(
        "this is the plain sum of the comm durations: comm intervals that overlap each other (two NCCL streams, "
        "or a bucket launched before the previous one ended) were counted twice; take the union first",
        "这是通信时长的直接求和：相互重叠的通信区间（两个 NCCL stream，或上一个 bucket 没完就发了下一个）被算了两次；先求并集")))
    comm_u = _merge(comm)
    pairwise = sum(e - s for s, e in comm_u) - sum(_overlap(c, p) for c in comm_u for p in compute)
    out.append(({"exposed_comm": pairwise}, say(
        "this subtracts every compute interval's overlap separately: where compute intervals overlap each other the "
        "same comm time is subtracted twice (it can even go negative); merge the compute intervals into their union first",
        "这是把每个计算区间的重叠分别减掉：计算区间彼此重叠的地方，同一段通信时间被减了两次（甚至会变成负数）；先把计算区间合并成并集")))
    ct, ex = _from_merged(_merge(compute, nested_ok=False), _merge(comm, nested_ok=False))
    out.append(({"comm_time": ct, "exposed_comm": ex}, say(
        "an interval nested inside another one cut the merged interval short: when merging, extend the end with "
        "max(current_end, end), never replace it with the later interval's end",
        "嵌套在另一个区间里的区间把合并结果截短了：合并时用 max(当前终点, 新终点) 延长终点，不要直接换成后一个区间的终点")))
    comm_time = sum(e - s for s, e in comm_u)
    out.append(({"exposed_comm": comm_time - _walk_both(comm_u, compute_u)}, say(
        "the two-pointer walk skipped some intersections: it moved both pointers after every pair, so a long interval "
        "never met the later intervals it also overlaps; move only the pointer whose interval ends first",
        "双指针漏掉了一些交集：每比较一对就把两个指针都前移，长区间没机会再和后面同样与它重叠的区间比较；只前移终点较早的那个指针")))
    ct, ex = _from_merged(_merge(compute, key=lambda iv: iv[1]), _merge(comm, key=lambda iv: iv[1]))
    out.append(({"comm_time": ct, "exposed_comm": ex}, say(
        "the intervals were sorted by end, not by start: a long interval that starts earlier but ends later is merged "
        "into a shorter one and its beginning is lost; sort by start before merging",
        "区间按终点而不是起点排序了：开始更早、结束更晚的长区间被并进短区间，开头那一段丢了；合并前要按起点排序")))
    want = reference(compute, comm)
    if want["comm_time"]:
        out.append(({"overlap_fraction": want["exposed_comm"] / want["comm_time"]}, say(
            "this is the exposed fraction, exposed_comm / comm_time; the overlap fraction is the hidden part, "
            "(comm_time - exposed_comm) / comm_time",
            "这是暴露比例 exposed_comm / comm_time；重叠比例是被藏住的部分，(comm_time - exposed_comm) / comm_time")))
    return out


def _close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _show(intervals):
    return "[" + ", ".join(f"({s:g}, {e:g})" for s, e in intervals) + "]"


def _expect(entry, compute, comm, label=""):
    got = entry([tuple(iv) for iv in compute], [tuple(iv) for iv in comm])
    assert isinstance(got, dict), say(f"comm_breakdown should return a dict, got {type(got).__name__}",
                                      f"comm_breakdown 应返回 dict，实际返回了 {type(got).__name__}")
    missing = [k for k in KEYS if k not in got]
    assert not missing, say(f"the returned dict lacks {missing}", f"返回的 dict 缺少 {missing}")
    for k in KEYS:
        v = got[k]
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        assert ok, say(f"{k} should be a finite number, got {v!r}", f"{k} 应为有限的数，实际是 {v!r}")
    want = reference(compute, comm)
    if label:
        case_en = case_zh = label
    else:
        case_en = f"compute {_show(compute)}, comm {_show(comm)}"
        case_zh = f"计算 {_show(compute)}，通信 {_show(comm)}"
    for k in KEYS:
        if _close(float(got[k]), want[k]):
            continue
        why = next((text for values, text in _mistakes(compute, comm)
                    if k in values and _close(float(got[k]), values[k])), "")
        raise AssertionError(say(f"{case_en}: expected {k} = {want[k]:.6g}, got {got[k]:.6g}. {why}",
                                 f"{case_zh}：{k} 应为 {want[k]:.6g}，实际是 {got[k]:.6g}。{why}").rstrip())


def test_separate_and_hidden(entry):
    _expect(entry, [(0, 10)], [(12, 15)])            # nothing hidden
    _expect(entry, [(0, 10)], [(2, 5)])              # fully hidden
    _expect(entry, [(0, 10), (20, 30)], [(8, 22)])   # 2 + 2 hidden, 10 exposed


def test_touching_intervals(entry):
    # comm starts exactly when compute ends: nothing overlaps
    _expect(entry, [(0, 10)], [(10, 15)])
    # touching comm intervals join; touching compute intervals hide the comm across the seam
    _expect(entry, [(0, 5), (5, 9)], [(3, 6), (6, 12)])


def test_overlapping_comm_counted_once(entry):
    # two streams: all-reduce 0-6 and all-gather 4-10 cover 10 us, not 12
    _expect(entry, [(0, 5)], [(0, 6), (4, 10)])
    _expect(entry, [(20, 21)], [(0, 8), (2, 9), (3, 9), (1, 4)])


def test_overlapping_compute_subtracted_once(entry):
    # compute kernels on two streams overlap each other: they hide 8 us of comm, not 12
    _expect(entry, [(0, 6), (2, 8)], [(0, 10)])
    _expect(entry, [(1, 4), (2, 5), (3, 6)], [(0, 3), (5, 9)])


def test_nested_intervals(entry):
    _expect(entry, [(5, 20)], [(0, 10), (2, 3)])     # a short comm inside a long one
    _expect(entry, [(0, 10), (1, 2)], [(5, 12)])     # a short compute inside a long one


def test_unsorted_input(entry):
    _expect(entry, [(40, 50), (0, 10), (22, 30)], [(45, 60), (5, 25), (1, 2)])
    _expect(entry, [(3, 9), (0, 1)], [(8, 11), (0, 30), (4, 6)])


def test_empty_lists(entry):
    _expect(entry, [(0, 10)], [])
    _expect(entry, [], [(2, 7), (5, 9)])
    _expect(entry, [], [])
    _expect(entry, [(1, 4)], [(3, 3)])               # a zero-length comm interval adds nothing
    _expect(entry, [(5, 5)], [(0, 10)])              # a zero-length compute interval hides nothing


def test_random_timelines(entry):
    rng = random.Random(1921)
    for case in range(30):
        def draw(n):
            ivs = []
            for _ in range(n):
                s = rng.randint(0, 400) * 0.25
                ivs.append((s, s + rng.randint(0, 120) * 0.25))
            return ivs
        compute, comm = draw(rng.randint(0, 12)), draw(rng.randint(0, 12))
        _expect(entry, compute, comm)


def test_rejects_reversed_interval(entry):
    for compute, comm in (([(0, 10)], [(5, 3)]), ([(10, 0)], [(1, 2)])):
        try:
            entry(compute, comm)
        except ValueError:
            continue
        except Exception as exc:  # noqa: BLE001 - the message names what was raised instead
            raise AssertionError(say(
                f"compute {_show(compute)}, comm {_show(comm)}: an interval with end < start should raise ValueError, got {type(exc).__name__}",
                f"计算 {_show(compute)}，通信 {_show(comm)}：end < start 的区间应抛出 ValueError，实际抛出了 {type(exc).__name__}")) from None
        raise AssertionError(say(
            f"compute {_show(compute)}, comm {_show(comm)}: an interval with end < start should raise ValueError, but the call returned",
            f"计算 {_show(compute)}，通信 {_show(comm)}：end < start 的区间应抛出 ValueError，调用却正常返回了"))
