"""Floyd-Warshall as the reference on small graphs; a larger sparse graph whose weights count the comparisons
made on distances (an O(n^2) scan for the closest node makes about n^2/2 of them, a heap O(m log n))."""

import heapq
import math
import random

from quiz.grader.say import say


_count = {"cmp": 0}


def observe():
    return _count["cmp"]


def restore(cmp):
    _count["cmp"] = int(cmp)


class W(float):
    """A distance that counts the comparisons made on it; sums of W are W."""

    def _c(op):
        def f(self, other):
            _count["cmp"] += 1
            return getattr(float, op)(self, other)

        return f

    __lt__, __le__, __gt__, __ge__ = _c("__lt__"), _c("__le__"), _c("__gt__"), _c("__ge__")
    del _c

    def __add__(self, other):
        return W(float(self) + float(other))

    __radd__ = __add__
    __hash__ = float.__hash__


def floyd_warshall(n, edges):
    d = [[math.inf] * n for _ in range(n)]
    for i in range(n):
        d[i][i] = 0
    for u, v, w in edges:
        d[u][v] = min(d[u][v], w)
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            if dik == math.inf:
                continue
            di = d[i]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return d


def reference(n, edges, source):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
    dist = [math.inf] * n
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist


def _run(entry, n, edges, source, what):
    got = entry(n, [tuple(e) for e in edges], source)
    assert isinstance(got, list) and len(got) == n and all(isinstance(x, (int, float)) for x in got), say(
        f"{what}: dijkstra should return a list of {n} numbers, got {str(got)[:120]}",
        f"{what}：dijkstra 应返回 {n} 个数的列表，实际是 {str(got)[:120]}",
    )
    return got


def _compare(got, want, edges, what):
    for i, (g, w) in enumerate(zip(got, want)):
        if w == math.inf:
            ok = g == math.inf
        else:
            ok = g != math.inf and abs(g - w) <= 1e-9 * max(1.0, abs(w))
        if ok:
            continue
        why_en = why_zh = ""
        if w == math.inf:
            why_en, why_zh = " (node i cannot be reached: return math.inf)", "（节点 i 不可达：应返回 math.inf）"
        elif g < w:
            why_en = " (shorter than possible: are edges treated as undirected, or a parallel edge's weight mixed up?)"
            why_zh = "（比可能的还短：是不是把边当成了无向边，或弄混了平行边的权重？）"
        else:
            why_en = (" (too long: a node marked done when pushed, or a parallel edge overwritten by a dearer one?)")
            why_zh = "（偏长：是不是入堆时就标记完成了，或平行边被更贵的那条覆盖了？）"
        assert False, say(f"{what}: distance to node {i} is {g}, expected {w}{why_en}",
                          f"{what}：到节点 {i} 的距离是 {g}，应为 {w}{why_zh}")


def test_small_graphs(entry):
    cases = [
        (4, [(0, 1, 5), (0, 2, 1), (2, 1, 1), (1, 3, 1)], 0),
        (3, [(0, 1, 4), (0, 1, 1), (1, 2, 0), (2, 2, 3)], 0),
        (5, [(0, 1, 2), (1, 0, 2), (3, 4, 1)], 0),
        (3, [(1, 0, 1), (2, 1, 1)], 2),
        (4, [(0, 1, 1), (1, 2, 1), (0, 2, 5), (2, 3, 1), (0, 3, 10)], 0),
    ]
    for n, edges, s in cases:
        what = f"n={n}, edges={edges}, source={s}"
        _compare(_run(entry, n, edges, s, what), floyd_warshall(n, edges)[s], edges, what)


def test_random_graphs(entry, seed):
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(1, 12)
        m = rng.randint(0, 3 * n)
        edges = [(rng.randrange(n), rng.randrange(n), rng.choice([0, 1, 2, 3, 5, 8, 13, 0.5, 2.25])) for _ in range(m)]
        s = rng.randrange(n)
        fw = floyd_warshall(n, edges)
        what = f"n={n}, edges={edges}, source={s}"
        _compare(_run(entry, n, edges, s, what), fw[s], edges, what)


def test_large_sparse_graph(entry, seed):
    rng = random.Random(seed)
    n, m = 2000, 8000
    plain = [(rng.randrange(n), rng.randrange(n), rng.randint(0, 1000)) for _ in range(m)]
    plain += [(i, i + 1, 1000) for i in range(n - 1)]  # every node reachable from 0
    edges = [(u, v, W(w)) for u, v, w in plain]
    _count["cmp"] = 0
    got = _run(entry, n, edges, 0, f"n={n}, m={len(edges)}")
    used = _count["cmp"]
    _compare(got, reference(n, plain, 0), plain, f"n={n}, m={len(edges)}")
    budget = 4 * (n + len(edges)) * math.ceil(math.log2(n + len(edges)))
    assert used <= budget, say(
        f"n={n}, m={len(edges)}: {used} comparisons of distances, the budget for O((n + m) log n) is {budget}; "
        f"a linear scan for the closest unfinished node makes about n^2/2 = {n * n // 2}: use a heap",
        f"n={n}，m={len(edges)}：比较距离 {used} 次，O((n + m) log n) 的预算是 {budget}；"
        f"线性扫描找最近的未完成节点约要 n^2/2 = {n * n // 2} 次：用堆",
    )


def test_backward_chain(entry):
    # A chain 0 -> 1 -> ... -> n-1 of weight 1, plus a dear direct edge 0 -> i for every i, listed from the far end
    # and the chain listed backwards: a label-correcting search (Bellman-Ford rounds over the edge list, or a FIFO
    # queue of improved nodes) fixes one more hop per round here, about n^2/2 relaxations; Dijkstra settles each node
    # once.
    n = 600
    plain = [(0, i, 10 * i) for i in range(n - 1, 0, -1)]
    plain += [(i, i + 1, 1) for i in range(n - 2, -1, -1)]
    edges = [(u, v, W(w)) for u, v, w in plain]
    what = f"n={n}, a chain of weight-1 edges listed backwards plus a dearer edge 0 -> i for every i"
    _count["cmp"] = 0
    got = _run(entry, n, edges, 0, what)
    used = _count["cmp"]
    _compare(got, list(range(n)), plain, what)
    budget = 4 * (n + len(edges)) * math.ceil(math.log2(n + len(edges)))
    assert used <= budget, say(
        f"{what}: {used} comparisons of distances, the budget for O((n + m) log n) is {budget}; relaxing edges "
        f"in rounds (Bellman-Ford) or from a FIFO queue of improved nodes (SPFA) corrects one hop per round here, "
        f"about n^2/2 = {n * n // 2}: take the closest node from a heap, and its distance is final when popped",
        f"{what}：比较距离 {used} 次，O((n + m) log n) 的预算是 {budget}；按轮松弛所有边（Bellman-Ford）"
        f"或用先进先出队列装被改进的节点（SPFA），在这张图上每轮只修正一跳，约 n^2/2 = {n * n // 2} 次："
        f"要用堆每次取最近的节点，弹出时它的距离才确定",
    )
