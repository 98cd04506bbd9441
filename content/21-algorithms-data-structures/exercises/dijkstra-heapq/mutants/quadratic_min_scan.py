import math


def dijkstra(n, edges, source):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
    dist = [math.inf] * n
    dist[source] = 0
    done = [False] * n
    for _ in range(n):
        u = -1
        for i in range(n):  # O(n) search for the closest unfinished node: O(n^2) in all
            if not done[i] and (u == -1 or dist[i] < dist[u]):
                u = i
        if dist[u] == math.inf:
            break
        done[u] = True
        for v, w in adj[u]:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    return dist
