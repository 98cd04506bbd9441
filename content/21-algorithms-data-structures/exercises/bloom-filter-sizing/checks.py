"""Sizing by the statement's formulas; membership of added items; the measured false-positive rate."""

import math
import random

from quiz.grader.say import say


def sizes(n, p):
    m = math.ceil(-n * math.log(p) / math.log(2) ** 2)
    return m, max(1, round(m / n * math.log(2)))


def test_sizing(entry):
    for n, p in ((1000, 0.01), (1_000_000, 0.001), (50, 0.1), (7, 0.5), (12345, 0.0001)):
        bf = entry(n, p)
        got = (bf.m, bf.k)
        want = sizes(n, p)
        why_en = why_zh = ""
        if got[0] != want[0] and got[0] == math.ceil(-n * math.log2(p) / math.log2(2) ** 2):
            why_en, why_zh = " (log2 instead of the natural log)", "（用了 log2 而不是自然对数）"
        assert got == want, say(f"n={n}, p={p}: (m, k) = {got}, expected {want}{why_en}",
                                f"n={n}，p={p}：(m, k) = {got}，应为 {want}{why_zh}")


def test_no_false_negatives(entry, seed):
    rng = random.Random(seed)
    for n, p in ((200, 0.01), (500, 0.05)):
        bf = entry(n, p)
        items = [f"user-{rng.randrange(10**12)}" for _ in range(n)]
        for item in items:
            bf.add(item)
        missing = [it for it in items if not bf.might_contain(it)]
        assert not missing, say(
            f"n={n}, p={p}: {len(missing)} added items reported absent (e.g. {missing[0]!r}); a Bloom filter never "
            f"gives a false negative: add must set every index that might_contain checks" if missing else "",
            f"n={n}，p={p}：{len(missing)} 个已加入的元素被判为不存在（如 {missing[0]!r}）；Bloom filter 不会漏判："
            f"add 必须把 might_contain 检查的每个下标都置 1" if missing else "",
        )


def test_false_positive_rate(entry, seed):
    rng = random.Random(seed)
    n, p, probes = 1000, 0.02, 5000
    bf = entry(n, p)
    for i in range(n):
        bf.add(f"in-{seed}-{i}-{rng.randrange(10**9)}")
    fp = sum(bool(bf.might_contain(f"out-{seed}-{j}-{rng.randrange(10**9)}")) for j in range(probes))
    rate = fp / probes
    limit = 1.6 * p
    single = 1 - math.exp(-n / sizes(n, p)[0])
    assert rate <= limit, say(
        f"n={n}, p={p}: {fp} of {probes} items never added were reported present ({rate:.1%}); the limit is "
        f"{limit:.1%}. With k=1 (or one index used k times) the rate is about {single:.1%}; with m counted in bytes "
        f"instead of bits it is far higher",
        f"n={n}，p={p}：{probes} 个从未加入的元素中有 {fp} 个被判为存在（{rate:.1%}）；上限 {limit:.1%}。"
        f"k=1（或同一个下标用 k 次）时约为 {single:.1%}；把 m 当成字节数会高得多",
    )


def test_single_hash_filter(entry, seed):
    # p = 0.5 sizes the filter with k = 1: an item that gets k - 1 = 0 indices (range(1, k)) looks present always,
    # while at p = 0.02 one index fewer than k barely changes the rate.
    rng = random.Random(seed)
    n, p, probes = 1000, 0.5, 2000
    bf = entry(n, p)
    for i in range(n):
        bf.add(f"in-{seed}-{i}-{rng.randrange(10**9)}")
    fp = sum(bool(bf.might_contain(f"out-{seed}-{j}-{rng.randrange(10**9)}")) for j in range(probes))
    rate = fp / probes
    limit = 0.6
    assert rate <= limit, say(
        f"n={n}, p={p} (so m={sizes(n, p)[0]}, k={sizes(n, p)[1]}): {fp} of {probes} items never added were reported "
        f"present ({rate:.1%}); expected about 50%, at most {limit:.0%}. Does every item get exactly k indices "
        f"(i = 0 .. k-1)? range(1, k) gives k - 1, none at all when k = 1",
        f"n={n}，p={p}（即 m={sizes(n, p)[0]}，k={sizes(n, p)[1]}）：{probes} 个从未加入的元素中有 {fp} 个被判为存在"
        f"（{rate:.1%}）；应约为 50%，至多 {limit:.0%}。每个元素是否正好有 k 个下标（i = 0 .. k-1）？"
        f"range(1, k) 只给 k - 1 个，k = 1 时一个也没有",
    )
