# Wrong: SPFA, a FIFO queue of improved nodes instead of a heap; right distances, but a node can be improved
# and re-queued once per round, about n^2/2 relaxations on a chain listed backwards.
import math
from collections import deque


def dijkstra(n, edges, source):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
    dist = [math.inf] * n
    dist[source] = 0
    q = deque([source])
    inq = [False] * n
    inq[source] = True
    while q:
        u = q.popleft()
        inq[u] = False
        for v, w in adj[u]:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                if not inq[v]:
                    inq[v] = True
                    q.append(v)
    return dist
