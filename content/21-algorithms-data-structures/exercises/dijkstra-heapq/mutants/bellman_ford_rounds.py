# Wrong: Bellman-Ford rounds over the edge list (stopping when nothing changes); right distances, but one more
# hop is fixed per round, about n * m comparisons on a chain listed backwards.
import math


def dijkstra(n, edges, source):
    dist = [math.inf] * n
    dist[source] = 0
    for _ in range(n - 1):
        changed = False
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            break
    return dist
