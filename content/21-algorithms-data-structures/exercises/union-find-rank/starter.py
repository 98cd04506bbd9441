class UnionFind:
    """Disjoint sets over 0..n-1 with path compression and union by rank."""

    def __init__(self, n):
        self.parent = list(range(n))

    def find(self, x):
        # TODO: walk to the root, then point every node of the path straight at it
        raise NotImplementedError("find")

    def union(self, a, b):
        # TODO: merge by rank; True if two sets were merged
        raise NotImplementedError("union")

    def connected(self, a, b):
        return self.find(a) == self.find(b)

    def components(self):
        raise NotImplementedError("components")
