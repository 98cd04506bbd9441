"""BFS components as the reference; tree height and path compression read from the learner's parent list."""

import math
import random
import time
from collections import deque

from quiz.grader.say import say

_state = {"took": -1.0}


def observe():
    return dict(_state)


def restore(state):
    _state.update(state)


def bfs_labels(n, edges):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    label = [-1] * n
    for s in range(n):
        if label[s] != -1:
            continue
        label[s] = s
        q = deque([s])
        while q:
            u = q.popleft()
            for v in adj[u]:
                if label[v] == -1:
                    label[v] = s
                    q.append(v)
    return label


def _parent(uf, n):
    parent = uf.parent
    assert isinstance(parent, list) and len(parent) == n and all(type(p) is int and 0 <= p < n for p in parent), say(
        f"`parent` should be a list of {n} ints in 0..{n - 1}, got {str(parent)[:100]}",
        f"`parent` 应是 {n} 个取值 0..{n - 1} 的 int 列表，实际是 {str(parent)[:100]}",
    )
    return list(parent)


def _root_and_depth(parent, x):
    depth = 0
    while parent[x] != x:
        x = parent[x]
        depth += 1
        assert depth <= len(parent), say("`parent` has a cycle", "`parent` 里有环")
    return x, depth


def test_random_graphs(entry, seed):
    rng = random.Random(seed)
    for _ in range(30):
        n = rng.randint(1, 40)
        uf = entry(n)
        edges = []
        for step in range(rng.randint(0, 2 * n)):
            a, b = rng.randrange(n), rng.randrange(n)
            before = bfs_labels(n, edges)
            edges.append((a, b))
            merged = uf.union(a, b)
            assert merged == (before[a] != before[b]), say(
                f"n={n}, union({a}, {b}) after {edges[:-1][:10]}...: returned {merged!r}; it should be True only when "
                f"{a} and {b} were in different sets",
                f"n={n}，在 {edges[:-1][:10]}... 之后 union({a}, {b}) 返回 {merged!r}；只有 {a} 与 {b} 原本不在同一集合时才应为 True",
            )
        label = bfs_labels(n, edges)
        want = len(set(label))
        got = uf.components()
        assert got == want, say(f"n={n}, edges {edges[:12]}...: components() is {got}, BFS finds {want}",
                                f"n={n}，边 {edges[:12]}...：components() 是 {got}，BFS 得到 {want}")
        for _ in range(30):
            a, b = rng.randrange(n), rng.randrange(n)
            got = uf.connected(a, b)
            assert got == (label[a] == label[b]), say(
                f"n={n}, edges {edges[:12]}...: connected({a}, {b}) is {got!r}, BFS says {label[a] == label[b]}",
                f"n={n}，边 {edges[:12]}...：connected({a}, {b}) 是 {got!r}，BFS 说 {label[a] == label[b]}",
            )
        roots = {uf.find(x) for x in range(n)}
        assert len(roots) == want, say(f"find() gives {len(roots)} distinct roots for {want} sets",
                                       f"find() 给出 {len(roots)} 个不同的根，集合却有 {want} 个")


def test_union_by_rank(entry):
    for n in (64, 1000):
        uf = entry(n)
        for i in range(n - 1):
            uf.union(i, i + 1)
        parent = _parent(uf, n)
        height = max(_root_and_depth(parent, x)[1] for x in range(n))
        limit = int(math.log2(n))
        assert height <= limit, say(
            f"n={n}, after union(i, i+1) for every i: a tree of height {height}; union by rank keeps it at most "
            f"log2(n) = {limit} (always hanging a's root under b's builds a chain)",
            f"n={n}，对每个 i 做 union(i, i+1) 之后树高 {height}；按秩合并应不超过 log2(n) = {limit}"
            f"（总把 a 的根挂到 b 的根下会连成一条链）",
        )
        assert uf.components() == 1, say(f"n={n}: components() should be 1 after joining a chain",
                                         f"n={n}：连成一条链后 components() 应为 1")


def test_path_compression(entry):
    k = 6
    n = 2 ** k
    uf = entry(n)
    width = 1
    while width < n:
        for start in range(0, n, 2 * width):
            parent = _parent(uf, n)
            ra = _root_and_depth(parent, start)[0]
            rb = _root_and_depth(parent, start + width)[0]
            uf.union(ra, rb)  # roots only, so no find along the way shortens anything yet
        width *= 2
    parent = _parent(uf, n)
    deepest = max(range(n), key=lambda x: _root_and_depth(parent, x)[1])
    root, depth = _root_and_depth(parent, deepest)
    assert depth >= 3, say(
        f"merging equal trees of {n} nodes pairwise should give a tree of height {k}; got {depth}",
        f"{n} 个节点两两合并同样大小的树，树高应为 {k}；实际是 {depth}",
    )
    path = [deepest]
    while parent[path[-1]] != path[-1]:
        path.append(parent[path[-1]])
    got = uf.find(deepest)
    assert got == root, say(f"find({deepest}) returned {got}, the root is {root}", f"find({deepest}) 返回 {got}，根是 {root}")
    after = _parent(uf, n)
    left = [x for x in path[:-1] if after[x] != root]
    assert not left, say(
        f"after find({deepest}) on a path of {depth} links {path}, nodes {left} still do not point at the root {root}: "
        f"path compression points every node of the path straight at the root",
        f"在 {depth} 步长的路径 {path} 上做 find({deepest}) 之后，节点 {left} 仍没有指向根 {root}：路径压缩要让路径上每个节点直接指向根",
    )


def test_components_is_constant_time(entry):
    n, merges, calls = 100_000, 200, 200
    uf = entry(n)
    for i in range(merges):
        uf.union(2 * i, 2 * i + 1)
    _state["took"] = -1.0
    start = time.perf_counter()
    got = [uf.components() for _ in range(calls)]
    _state["took"] = time.perf_counter() - start
    uf.connected(0, 1)  # a last call: the judge restores the time measured in your process here
    assert all(c == n - merges for c in got), say(
        f"n={n} after {merges} merges: components() gave {sorted(set(got))[:3]}, expected {n - merges}",
        f"n={n}，合并 {merges} 次之后：components() 给出 {sorted(set(got))[:3]}，应为 {n - merges}",
    )
    took = _state["took"]
    assert 0 <= took < 0.1, say(
        f"n={n}: {calls} calls of components() took {took:.2f} s; keep a count (n at the start, minus 1 on each "
        f"real merge) and return it in O(1) instead of counting the roots, which is O(n) per call",
        f"n={n}：{calls} 次 components() 用了 {took:.2f} 秒；应维护一个计数（开始为 n，每次真正合并减 1），"
        f"O(1) 返回，而不是每次数一遍根（每次 O(n)）",
    )
