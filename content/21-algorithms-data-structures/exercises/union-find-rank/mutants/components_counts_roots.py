# Wrong: components() counts the roots on every call, O(n) instead of keeping a count.
class UnionFind:
    def __init__(self, n):
        self.parent = list(range(n))
        self.size = [1] * n
        self._count = n

    def find(self, x):
        p = self.parent[x]
        if p == x:
            return x
        r = self.find(p)
        self.parent[x] = r
        return r

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        self._count -= 1
        return True

    def connected(self, a, b):
        return self.find(a) == self.find(b)

    def components(self):
        return sum(1 for i, p in enumerate(self.parent) if i == p)
