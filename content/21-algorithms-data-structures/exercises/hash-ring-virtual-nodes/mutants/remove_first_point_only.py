import bisect
import hashlib


def ring_hash(text):
    return int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "big")


class HashRing:
    def __init__(self, vnodes=100):
        self.vnodes = vnodes
        self.points = []  # sorted positions of every virtual node
        self.owner = {}  # position -> node
        self.nodes = set()

    def add_node(self, node):
        if node in self.nodes:
            return
        self.nodes.add(node)
        for i in range(self.vnodes):
            pos = ring_hash(f"{node}#{i}")
            bisect.insort(self.points, pos)
            self.owner[pos] = node

    def remove_node(self, node):
        if node not in self.nodes:
            raise KeyError(node)
        self.nodes.remove(node)
        for i in range(1):
            pos = ring_hash(f"{node}#{i}")
            del self.points[bisect.bisect_left(self.points, pos)]
            del self.owner[pos]

    def get_node(self, key):
        if not self.points:
            raise KeyError(key)
        i = bisect.bisect_left(self.points, ring_hash(key))
        if i == len(self.points):
            i = 0  # past the largest position: wrap around to the first
        return self.owner[self.points[i]]
