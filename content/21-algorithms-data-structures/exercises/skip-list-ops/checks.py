"""A sorted list as the reference, and keys that count the comparisons made on them."""

import bisect
import math
import random

from quiz.grader.say import say

_count = {"cmp": 0}


def observe():
    return _count["cmp"]


def restore(cmp):
    _count["cmp"] = int(cmp)


class K:
    """A key that counts every comparison."""

    __slots__ = ("v",)
    __hash__ = None

    def __init__(self, v):
        self.v = v

    def _cmp(op):
        def f(self, other):
            _count["cmp"] += 1
            if not isinstance(other, K):
                return NotImplemented
            return getattr(self.v, op)(other.v)

        return f

    __lt__, __le__, __gt__, __ge__ = _cmp("__lt__"), _cmp("__le__"), _cmp("__gt__"), _cmp("__ge__")
    __eq__, __ne__ = _cmp("__eq__"), _cmp("__ne__")
    del _cmp


class Reference:
    def __init__(self):
        self.keys = []

    def search(self, k):
        i = bisect.bisect_left(self.keys, k)
        return i < len(self.keys) and self.keys[i] == k

    def insert(self, k):
        if self.search(k):
            return False
        bisect.insort(self.keys, k)
        return True

    def delete(self, k):
        if not self.search(k):
            return False
        self.keys.remove(k)
        return True


def _check_list(sl, ref, what):
    got = sl.to_list()
    if got == ref.keys:
        return
    extra = sorted(set(got) - set(ref.keys))[:6]
    missing = sorted(set(ref.keys) - set(got))[:6]
    i = next((i for i, (a, b) in enumerate(zip(got, ref.keys)) if a != b), min(len(got), len(ref.keys)))
    assert False, say(
        f"{what}: to_list() is wrong from position {i} onwards ({len(got)} keys, expected {len(ref.keys)}); keys that "
        f"should not be there: {extra}, keys missing: {missing}",
        f"{what}：to_list() 从第 {i} 个位置起不对（{len(got)} 个键，应为 {len(ref.keys)} 个）；多出的键：{extra}，缺少的键：{missing}",
    )


def test_random_operations(entry, seed):
    rng = random.Random(seed)
    for _ in range(6):
        sl, ref, log = entry(), Reference(), []
        span = rng.choice([10, 50, 500])
        for step in range(400):
            op = rng.choice(["insert", "insert", "search", "delete"])
            k = rng.randrange(span)
            log.append(f"{op}({k})")
            got, want = getattr(sl, op)(k), getattr(ref, op)(k)
            if got != want:
                why_en = why_zh = ""
                if op == "search" and got and not want:
                    why_en = " (a deleted key still found: was it unlinked on every level?)"
                    why_zh = "（找到了已删除的键：它在每一层都摘掉了吗？）"
                assert False, say(f"...{'; '.join(log[-6:])}: {op}({k}) returned {got!r}, expected {want!r}{why_en}",
                                  f"...{'；'.join(log[-6:])}：{op}({k}) 返回 {got!r}，应为 {want!r}{why_zh}")
            if step % 50 == 49:
                _check_list(sl, ref, f"after {step + 1} operations")
        _check_list(sl, ref, "at the end")


def test_duplicates_and_absent(entry):
    sl = entry()
    steps = [("insert", 5, True), ("insert", 5, False), ("insert", 3, True), ("delete", 4, False),
             ("delete", 5, True), ("delete", 5, False), ("search", 5, False), ("search", 3, True),
             ("insert", 5, True), ("search", 5, True)]
    done = []
    for op, k, want in steps:
        got = getattr(sl, op)(k)
        done.append(f"{op}({k})")
        assert got is want, say(f"{'; '.join(done)}: the last returned {got!r}, expected {want!r}",
                                f"{'；'.join(done)}：最后一个返回 {got!r}，应为 {want!r}")
    got = sl.to_list()
    assert got == [3, 5], say(f"then to_list() is {got}, expected [3, 5]", f"然后 to_list() 是 {got}，应为 [3, 5]")


def test_comparisons(entry, seed):
    rng = random.Random(seed)
    n, ops = 1500, 1500
    sl = entry()
    for _ in range(n):
        sl.insert(K(rng.randrange(10**6)))
    _count["cmp"] = 0
    for _ in range(ops):
        r, k = rng.random(), K(rng.randrange(10**6))
        (sl.search if r < 0.5 else sl.insert if r < 0.75 else sl.delete)(k)
    per_op = _count["cmp"] / ops
    limit = 6 * math.log2(n)
    assert per_op <= limit, say(
        f"{n} keys: {per_op:.0f} key comparisons per operation on average, the limit is 6*log2(n) = {limit:.0f}; "
        f"a list with one level walks about n/2 = {n // 2} (are new nodes given random heights, and does the search "
        f"start at the top level?)",
        f"{n} 个键：平均每次操作比较键 {per_op:.0f} 次，上限 6*log2(n) = {limit:.0f}；只有一层的链表约要走 n/2 = {n // 2} 次"
        f"（新节点有随机层数吗？查找是从最高层开始的吗？）",
    )
