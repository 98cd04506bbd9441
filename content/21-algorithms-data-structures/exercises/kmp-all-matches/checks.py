"""A naive search as the reference, tokens that count their == calls, and the tests."""

import random

from quiz.grader.say import say

_count = {"eq": 0}


def observe():
    return _count["eq"]


def restore(eq):
    _count["eq"] = int(eq)


class Tok:
    """An element that supports only == and != (no hashing, ordering or useful str), counting each comparison."""

    __hash__ = None
    __slots__ = ("_v",)

    def __init__(self, v):
        self._v = v

    def __eq__(self, other):
        _count["eq"] += 1
        return isinstance(other, Tok) and self._v == other._v

    def __repr__(self):
        return "Tok"


def naive(text, pattern):
    n, m = len(text), len(pattern)
    return [i for i in range(n - m + 1) if all(text[i + k] == pattern[k] for k in range(m))]


def _search(entry, text, pattern, what):
    got = entry(text, pattern)
    assert isinstance(got, list) and all(type(i) is int for i in got), say(
        f"{what}: kmp_search should return a list of ints, got {got!r}",
        f"{what}：kmp_search 应返回 int 列表，实际是 {got!r}",
    )
    return got


def _compare(got, want, what):
    if got == want:
        return
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    why_en, why_zh = "", ""
    if missing and not extra and len(missing) < len(want):
        why_en = " (overlapping occurrences missing? after a full match fall back to pi[m-1], not to 0)"
        why_zh = "（漏了重叠的出现？完整匹配之后应退到 pi[m-1]，而不是 0）"
    assert False, say(
        f"{what}: expected {want[:12]}, got {got[:12]}; missing {missing[:8]}, wrong {extra[:8]}{why_en}",
        f"{what}：应为 {want[:12]}，实际是 {got[:12]}；漏了 {missing[:8]}，多出 {extra[:8]}{why_zh}",
    )


def test_small_cases(entry):
    cases = [("aaaa", "aa"), ("abababa", "aba"), ("abcabcabd", "abcabd"), ("aabaaab", "aab"), ("abc", "abcd"),
             ("abc", "abc"), ("xyz", "a"), ("aaab", "aab"), ("abacabab", "abab"), ("a", "a")]
    for text, pattern in cases:
        got = _search(entry, text, pattern, f"kmp_search({text!r}, {pattern!r})")
        _compare(got, naive(text, pattern), f"kmp_search({text!r}, {pattern!r})")


def test_random_strings(entry, seed):
    rng = random.Random(seed)
    for case in range(300):
        alphabet = "ab" if case % 3 else "abc"
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        pattern = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))
        got = _search(entry, text, pattern, f"kmp_search({text!r}, {pattern!r})")
        _compare(got, naive(text, pattern), f"kmp_search({text!r}, {pattern!r})")


def test_eq_only_elements(entry, seed):
    rng = random.Random(seed)
    for _ in range(40):
        t = [rng.randint(0, 2) for _ in range(rng.randint(5, 60))]
        p = [rng.randint(0, 1) for _ in range(rng.randint(1, 4))]
        got = _search(entry, [Tok(v) for v in t], [Tok(v) for v in p], f"tokens {t}, pattern {p}")
        _compare(got, naive(t, p), f"tokens {t}, pattern {p}")


def test_comparison_count(entry):
    for n, m, kind in ((3000, 40, "a...a vs a...ab"), (3000, 40, "a...a vs a...a"), (2000, 200, "a...a vs ab...b")):
        if kind == "a...a vs a...ab":
            t, p = [0] * n, [0] * (m - 1) + [1]
        elif kind == "a...a vs a...a":
            t, p = [0] * n, [0] * m
        else:
            t, p = [0] * n, [0] + [1] * (m - 1)
        _count["eq"] = 0
        got = _search(entry, [Tok(v) for v in t], [Tok(v) for v in p], f"n={n}, m={m}, {kind}")
        used = _count["eq"]
        _compare(got, naive(t, p), f"n={n}, m={m}, {kind}")
        limit = 4 * (n + m)
        assert used <= limit, say(
            f"n={n}, m={m}, {kind}: {used} comparisons, the limit is 4(n+m) = {limit}; the text pointer must never "
            f"move back (a naive search needs about n*m = {n * m})",
            f"n={n}，m={m}，{kind}：比较了 {used} 次，上限 4(n+m) = {limit}；文本指针不能后退（朴素搜索约要 n*m = {n * m} 次）",
        )
