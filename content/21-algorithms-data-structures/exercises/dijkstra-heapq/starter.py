import heapq  # noqa: F401
import math  # noqa: F401


def dijkstra(n, edges, source):
    """Shortest distance from `source` to every node 0..n-1 over directed edges (u, v, w >= 0); math.inf if unreachable."""
    # TODO: adjacency list, a heap of (distance, node), skip stale entries, relax the edges of each popped node
    raise NotImplementedError("dijkstra")
