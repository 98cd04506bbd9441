"""An OrderedDict reference, keys that count their == calls, and a 4-thread stress test on a shared key set."""

import random
import sys
import time
from collections import OrderedDict

from quiz.grader.say import say
from quiz.grader.threads import run_threads

_count = {"eq": 0}


def observe():
    return _count["eq"]


def restore(eq):
    _count["eq"] = int(eq)


class Key:
    """A key compared in Python code, so a thread switch can land inside a dict operation; counts ==."""

    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        _count["eq"] += 1
        return isinstance(other, Key) and self.k == other.k

    def __repr__(self):
        return f"Key({self.k})"


class YieldKey(Key):
    """A key whose hashing gives up the GIL, so another thread runs in the middle of a dict operation."""

    __slots__ = ()

    def __hash__(self):
        time.sleep(0)
        return hash(self.k)


class Reference:
    def __init__(self, capacity):
        self.capacity, self.data = capacity, OrderedDict()

    def get(self, k):
        if k not in self.data:
            return None
        self.data.move_to_end(k)
        return self.data[k]

    def put(self, k, v):
        if k in self.data:
            self.data.move_to_end(k)
        elif len(self.data) >= self.capacity:
            self.data.popitem(last=False)
        self.data[k] = v


def _size(cache, what):
    n = cache.size()
    assert type(n) is int, say(f"{what}: size() should return an int, got {n!r}", f"{what}：size() 应返回 int，实际是 {n!r}")
    return n


def _guarded(body, timeout=1.5):
    """Run a sequential test body in one named thread, so a lock taken twice is reported instead of hanging."""
    return run_threads({"main": body}, timeout=timeout)["main"]


def test_eviction_order(entry):
    _guarded(lambda: _eviction_order(entry))


def _eviction_order(entry):
    c = entry(2)
    c.put("a", 1)
    c.put("b", 2)
    got = c.get("a")
    assert got == 1, say(f"put a=1, put b=2, get a: got {got!r}", f"put a=1、put b=2、get a：得到 {got!r}")
    c.put("c", 3)
    steps = "capacity 2: put a, put b, get a, put c"
    got_b, got_a, got_c = c.get("b"), c.get("a"), c.get("c")
    assert got_b is None, say(f"{steps}: b should be evicted (a was used after b), but get b gave {got_b!r}",
                              f"{steps}：b 应被淘汰（a 在 b 之后用过），get b 却得到 {got_b!r}")
    assert (got_a, got_c) == (1, 3), say(f"{steps}: get a, get c gave {got_a!r}, {got_c!r}, expected 1, 3",
                                         f"{steps}：get a、get c 得到 {got_a!r}、{got_c!r}，应为 1、3")
    c = entry(2)
    c.put("a", 1)
    c.put("b", 2)
    c.put("a", 10)
    n = _size(c, "update")
    assert n == 2, say(f"capacity 2: put a=1, put b=2, put a=10: size() is {n!r}, expected 2",
                       f"capacity 2：put a=1、put b=2、put a=10：size() 是 {n!r}，应为 2")
    c.put("c", 3)
    got_b, got_a, got_c = c.get("b"), c.get("a"), c.get("c")
    assert (got_b, got_a, got_c) == (None, 10, 3), say(
        f"capacity 2: put a=1, put b=2, put a=10, put c=3: get b, a, c gave {got_b!r}, {got_a!r}, {got_c!r}; expected "
        f"None, 10, 3 (updating a makes it most recently used and evicts nothing, so c evicts b)",
        f"capacity 2：put a=1、put b=2、put a=10、put c=3：get b、a、c 得到 {got_b!r}、{got_a!r}、{got_c!r}；应为 "
        f"None、10、3（更新 a 让它变成最近使用且不淘汰任何键，所以 c 淘汰 b）",
    )


def test_random_sequence(entry, seed):
    _guarded(lambda: _random_sequence(entry, seed), timeout=3.0)  # 1,600 recorded calls: room on a busy machine


def _random_sequence(entry, seed):
    rng = random.Random(seed)
    for _ in range(20):
        cap = rng.randint(1, 6)
        c, ref = entry(cap), Reference(cap)
        log = []
        for _ in range(80):
            k = rng.randrange(10)
            if rng.random() < 0.5:
                v = rng.randrange(1000)
                log.append(f"put({k}, {v})")
                c.put(k, v)
                ref.put(k, v)
            else:
                log.append(f"get({k})")
                got, want = c.get(k), ref.get(k)
                assert got == want, say(f"capacity {cap}, ...{'; '.join(log[-8:])}: got {got!r}, expected {want!r}",
                                        f"capacity {cap}，...{'；'.join(log[-8:])}：得到 {got!r}，应为 {want!r}")
        n = _size(c, "random")
        assert n == len(ref.data), say(f"capacity {cap}: size() is {n}, expected {len(ref.data)}",
                                       f"capacity {cap}：size() 是 {n}，应为 {len(ref.data)}")


def test_constant_key_comparisons(entry, seed):
    _guarded(lambda: _constant_key_comparisons(entry, seed), timeout=3.0)


def _constant_key_comparisons(entry, seed):
    rng = random.Random(seed)
    cap, ops = 400, 3000
    c = entry(cap)
    _count["eq"] = 0
    for _ in range(ops):
        k = rng.randrange(600)
        if rng.random() < 0.5:
            c.put(Key(k), k)
        else:
            c.get(Key(k))
    used = _count["eq"]
    budget = 6 * ops
    assert used <= budget, say(
        f"capacity {cap}, {ops} operations on fresh key objects: {used} key comparisons (==), the budget is {budget} "
        f"(6 per operation); finding a key in a list is O(capacity) per operation: use a dict",
        f"capacity {cap}，{ops} 次操作（每次都是新的键对象）：比较了 {used} 次键（==），预算 {budget}（每次操作 6 次）；"
        f"在列表里找键每次是 O(capacity)：用 dict",
    )


def test_threads(entry, seed):
    cap, keys, ops = 8, 16, 1000
    c = entry(cap)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, so races show up

    def work(t):
        def run():
            rng = random.Random(seed * 31 + t)
            bad = []
            for n in range(ops):
                k = rng.randrange(keys)
                try:
                    if rng.random() < 0.5:
                        c.put(YieldKey(k), f"{k}:{t}:{n}")
                    else:
                        v = c.get(YieldKey(k))
                        if v is not None and (not isinstance(v, str) or v.split(":")[0] != str(k)):
                            bad.append((k, v))
                except Exception as exc:  # noqa: BLE001 - reported with its cause below
                    raise AssertionError(say(
                        f"thread t{t}, operation {n}: your code raised {type(exc).__name__}: {exc} while 4 threads used "
                        f"the cache: one thread changed the map or the list between another's lookup and update (a "
                        f"missing or partial lock)",
                        f"线程 t{t}，第 {n} 次操作：4 个线程同时使用缓存时你的代码抛出 {type(exc).__name__}: {exc}："
                        f"一个线程在另一个线程的查找和修改之间改动了哈希表或链表（没加锁或只锁了一部分）",
                    )) from None
            return bad

        return run

    try:
        seen = run_threads({f"t{t}": work(t) for t in range(4)}, timeout=6.0)
    finally:
        sys.setswitchinterval(old)
    for name, bad in sorted(seen.items()):
        assert not bad, say(f"thread {name}: get returned values never written for that key: {bad[:3]}",
                            f"线程 {name}：get 返回了从没为该键写过的值：{bad[:3]}")
    n = _size(c, "after the threads")
    assert n <= cap, say(f"after 4 threads, size() is {n}, more than the capacity {cap}: a race between lookup and eviction",
                         f"4 个线程之后 size() 是 {n}，超过容量 {cap}：查找和淘汰之间有竞争")
    for k in range(100, 100 + cap):
        c.put(Key(k), f"{k}:main")
    missing = [k for k in range(100, 100 + cap) if c.get(Key(k)) != f"{k}:main"]
    n = _size(c, "after the threads")
    assert not missing and n == cap, say(
        f"after the threads, putting {cap} new keys then reading them back lost {missing} (size() {n}): the map "
        f"and the order list disagree, which unlocked concurrent updates cause",
        f"线程结束后放入 {cap} 个新键再读回，丢了 {missing}（size() {n}）：哈希表和顺序链表对不上，这是不加锁的并发修改造成的",
    )
