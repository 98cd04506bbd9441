"""A reference ring (the statement fixes the hash), and the properties: balance, minimal movement, errors."""

import bisect
import hashlib
import random
from collections import Counter

from quiz.grader.say import say


def ring_hash(text):
    return int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "big")


class Reference:
    def __init__(self, vnodes):
        self.vnodes, self.points, self.owner = vnodes, [], {}

    def add(self, node):
        for i in range(self.vnodes):
            pos = ring_hash(f"{node}#{i}")
            if pos not in self.owner:
                bisect.insort(self.points, pos)
                self.owner[pos] = node

    def remove(self, node):
        self.points = [p for p in self.points if self.owner[p] != node]
        self.owner = {p: n for p, n in self.owner.items() if n != node}

    def get(self, key):
        i = bisect.bisect_left(self.points, ring_hash(key))
        return self.owner[self.points[i % len(self.points)]]


def _get(ring, key, nodes, what):
    got = ring.get_node(key)
    assert got in nodes, say(f"{what}: get_node({key!r}) returned {got!r}, which is not on the ring {sorted(nodes)}",
                             f"{what}：get_node({key!r}) 返回 {got!r}，它不在环上 {sorted(nodes)}")
    return got


def _explain(ring_ref, key):
    h = ring_hash(key)
    if h in ring_ref.owner:
        return (" (this key hashes exactly onto a virtual node: the first position >= it is that virtual node itself; "
                "bisect_right, or a strict >, skips it)",
                "（这个键的哈希正好落在一个虚拟节点上：第一个 >= 它的位置就是这个虚拟节点本身；"
                "bisect_right 或严格的 > 会跳过它）")
    if h > ring_ref.points[-1]:
        return (" (this key hashes past the largest position: wrap around to the first)",
                "（这个键的哈希超过了最大位置：应绕回到第一个）")
    return (" (clockwise means the first position >= ring_hash(key); check the hash and the f'{node}#{i}' names)",
            "（顺时针指第一个 >= ring_hash(key) 的位置；检查哈希函数和 f'{node}#{i}' 的命名）")


def test_matches_reference(entry, seed):
    rng = random.Random(seed)
    for _ in range(4):
        vnodes = rng.choice([1, 3, 20, 64])
        ring, ref, nodes = entry(vnodes), Reference(vnodes), set()
        log = []
        for _ in range(12):
            if nodes and rng.random() < 0.3:
                node = rng.choice(sorted(nodes))
                ring.remove_node(node)
                ref.remove(node)
                nodes.discard(node)
                log.append(f"-{node}")
            else:
                node = f"node-{rng.randrange(40)}"
                ring.add_node(node)
                if node not in nodes:
                    ref.add(node)
                nodes.add(node)
                log.append(f"+{node}")
            if not nodes:
                continue
            what = f"vnodes={vnodes}, after {' '.join(log[-6:])}"
            keys = [f"key-{rng.randrange(10**9)}" for _ in range(40)]
            # keys spelled like virtual nodes hash exactly onto a position: ">=" finds that very point
            keys += [f"{node}#{rng.randrange(vnodes)}" for node in sorted(nodes)[:3]]
            for key in keys:
                got, want = _get(ring, key, nodes, what), ref.get(key)
                if got != want:
                    en, zh = _explain(ref, key)
                    assert False, say(f"{what}: get_node({key!r}) is {got!r}, expected {want!r}{en}",
                                      f"{what}：get_node({key!r}) 是 {got!r}，应为 {want!r}{zh}")


def test_balance(entry, seed):
    rng = random.Random(seed)
    n, vnodes, keys = 10, 150, 6000
    ring = entry(vnodes)
    nodes = {f"gpu-{rng.randrange(10**6)}-{i}" for i in range(n)}
    for node in sorted(nodes):
        ring.add_node(node)
    load = Counter(_get(ring, f"k{rng.random()}", nodes, "balance") for _ in range(keys))
    ratio = max(load.values()) / (keys / n)
    assert ratio <= 1.35, say(
        f"{n} nodes x {vnodes} virtual nodes, {keys} keys: the busiest node holds {ratio:.2f}x the mean, the limit is "
        f"1.35 (with one point per node the arcs are very uneven: are all vnodes placed?)",
        f"{n} 个节点 x {vnodes} 个虚拟节点，{keys} 个键：最忙的节点是平均的 {ratio:.2f} 倍，上限 1.35"
        f"（每个节点只有一个位置时弧长差别很大：虚拟节点都放上了吗？）",
    )


def test_minimal_movement(entry, seed):
    rng = random.Random(seed)
    n, vnodes = 8, 100
    ring = entry(vnodes)
    nodes = {f"cache-{i}" for i in range(n)}
    for node in sorted(nodes):
        ring.add_node(node)
    keys = [f"obj-{rng.randrange(10**9)}" for _ in range(2000)]
    before = {k: _get(ring, k, nodes, "before") for k in keys}
    ring.add_node("cache-new")
    nodes.add("cache-new")
    after = {k: _get(ring, k, nodes, "after adding cache-new") for k in keys}
    moved = [k for k in keys if before[k] != after[k]]
    wrong = [k for k in moved if after[k] != "cache-new"]
    assert not wrong, say(
        f"adding cache-new to {n} nodes moved {len(wrong)} keys between old nodes (e.g. {wrong[0]!r}: "
        f"{before[wrong[0]]} -> {after[wrong[0]]}); on a ring only keys taken over by the new node move"
        if wrong else "",
        f"向 {n} 个节点加入 cache-new 后，有 {len(wrong)} 个键在旧节点之间搬动（如 {wrong[0]!r}："
        f"{before[wrong[0]]} -> {after[wrong[0]]}）；在环上只有被新节点接管的键才会搬" if wrong else "",
    )
    limit = 2 / (n + 1)
    assert len(moved) <= limit * len(keys), say(
        f"adding a 9th node moved {len(moved)} of {len(keys)} keys ({len(moved) / len(keys):.0%}); expected about "
        f"1/9, at most {limit:.0%} (hash % N moves almost all of them)",
        f"加入第 9 个节点搬动了 {len(keys)} 个键中的 {len(moved)} 个（{len(moved) / len(keys):.0%}）；应约为 1/9，"
        f"最多 {limit:.0%}（hash % N 几乎全部要搬）",
    )
    ring.remove_node("cache-3")
    nodes.discard("cache-3")
    final = {k: _get(ring, k, nodes, "after removing cache-3") for k in keys}
    bad = [k for k in keys if after[k] != "cache-3" and final[k] != after[k]]
    assert not bad, say(
        f"removing cache-3 moved {len(bad)} keys that were not on cache-3 (e.g. {bad[0]!r}: {after[bad[0]]} -> "
        f"{final[bad[0]]})" if bad else "",
        f"删除 cache-3 后，有 {len(bad)} 个原本不在 cache-3 上的键搬动了（如 {bad[0]!r}：{after[bad[0]]} -> "
        f"{final[bad[0]]}）" if bad else "",
    )


def test_errors(entry):
    ring = entry(10)
    for action, call in (("get_node('k') on an empty ring", lambda: ring.get_node("k")),
                         ("remove_node('ghost')", lambda: ring.remove_node("ghost"))):
        try:
            got = call()
        except KeyError:
            continue
        assert False, say(f"{action} should raise KeyError, got {got!r}", f"{action} 应抛出 KeyError，实际得到 {got!r}")
    ring.add_node("a")
    ring.add_node("a")
    ring.remove_node("a")
    try:
        got = ring.get_node("k")
    except KeyError:
        return
    assert False, say(
        f"add 'a' twice, remove it once: the ring should be empty (adding a node already there does nothing), but "
        f"get_node returned {got!r}",
        f"两次加入 'a'、删除一次：环应为空（重复加入什么也不做），get_node 却返回 {got!r}",
    )
