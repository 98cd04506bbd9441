# Wrong: range(1, k) gives each item k - 1 indices; at p = 0.02 the rate barely moves, but with k = 1 an item
# has no index at all and everything looks present.
import hashlib
import math


class BloomFilter:
    def __init__(self, n, p):
        self.m = math.ceil(-n * math.log(p) / math.log(2) ** 2)
        self.k = max(1, round(self.m / n * math.log(2)))
        self.bits = bytearray((self.m + 7) // 8)

    def _indices(self, item):
        d = hashlib.sha256(item.encode()).digest()
        h1 = int.from_bytes(d[:8], "little")
        h2 = int.from_bytes(d[8:16], "little") | 1  # odd, so the k indices differ
        return [(h1 + i * h2) % self.m for i in range(1, self.k)]

    def add(self, item):
        for j in self._indices(item):
            self.bits[j >> 3] |= 1 << (j & 7)

    def might_contain(self, item):
        return all(self.bits[j >> 3] >> (j & 7) & 1 for j in self._indices(item))
