import hashlib  # noqa: F401
import math


class BloomFilter:
    """m bits and k hash functions chosen for about n items at a false-positive rate p."""

    def __init__(self, n, p):
        self.m = math.ceil(-n * math.log(p) / math.log(2) ** 2)
        self.k = max(1, round(self.m / n * math.log(2)))
        self.bits = bytearray((self.m + 7) // 8)

    def add(self, item):
        # TODO: set the k bit indices of item
        raise NotImplementedError("add")

    def might_contain(self, item):
        # TODO: True when all k indices of item are set
        raise NotImplementedError("might_contain")
