"""A lane-by-lane reference of __shfl_down_sync / __shfl_xor_sync tree reductions (full mask)."""

import random

from quiz.grader.say import say


def reference(values, width=32, mode="down"):
    lanes = list(values)
    offset = width // 2
    while offset >= 1:
        if mode == "xor":
            got = [lanes[i ^ offset] for i in range(32)]
        else:
            got = [lanes[i + offset] if i % width + offset < width else lanes[i] for i in range(32)]
        lanes = [a + b for a, b in zip(lanes, got)]
        offset //= 2
    return lanes


def _values(rng, kind):
    if kind == "ints":
        return [float(rng.randint(-9, 9)) for _ in range(32)]
    return [rng.uniform(-1, 1) for _ in range(32)]


def _compare(entry, values, width, mode, what):
    got = entry(list(values), width, mode)
    assert isinstance(got, list) and len(got) == 32, say(
        f"{what}: warp_reduce should return a list of 32 lane values, got {str(got)[:80]}",
        f"{what}：warp_reduce 应返回 32 个 lane 的值的列表，实际是 {str(got)[:80]}",
    )
    want = reference(values, width, mode)
    bad = [i for i in range(32) if got[i] != want[i]]
    if not bad:
        return
    heads = list(range(0, 32, width)) if mode == "down" else list(range(32))
    seg_sums = [sum(values[s:s + width]) for s in range(0, 32, width)]
    head_ok = all(abs(got[h] - seg_sums[h // width]) < 1e-9 for h in heads)
    hint_en, hint_zh = "", ""
    if mode == "down" and head_ok:
        hint_en = (" (the segment sums are right, the other lanes are not: a lane whose source lane is past the end of "
                   "its segment gets its own value back, not 0, and the offsets go width/2, ..., 1)")
        hint_zh = "（各段的和是对的，其他 lane 不对：源 lane 超出本段的 lane 拿回的是自己的值而不是 0；偏移量依次为 width/2, ..., 1）"
    elif mode == "xor":
        hint_en = " (every lane reads before any lane writes: a shuffle happens for all lanes at once)"
        hint_zh = "（所有 lane 先读、再一起写：一次 shuffle 对所有 lane 同时发生）"
    lane = bad[0]
    assert False, say(
        f"{what}: lane {lane} ends with {got[lane]!r}, expected {want[lane]!r}; {len(bad)} of 32 lanes differ{hint_en}",
        f"{what}：lane {lane} 最后是 {got[lane]!r}，应为 {want[lane]!r}；32 个 lane 中有 {len(bad)} 个不对{hint_zh}",
    )


def test_full_warp_down(entry, seed):
    rng = random.Random(seed)
    _compare(entry, [float(i) for i in range(32)], 32, "down", "values 0..31, width 32, shfl_down")
    for kind in ("ints", "floats", "floats"):
        _compare(entry, _values(rng, kind), 32, "down", f"random {kind}, width 32, shfl_down")


def test_segments_down(entry, seed):
    rng = random.Random(seed)
    for width in (16, 8, 4, 2):
        _compare(entry, _values(rng, "floats"), width, "down", f"random floats, width {width}, shfl_down")


def test_butterfly_xor(entry, seed):
    rng = random.Random(seed)
    for width in (32, 8):
        _compare(entry, _values(rng, "floats"), width, "xor", f"random floats, width {width}, shfl_xor")
