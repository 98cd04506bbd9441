# Wrong: bisect_right finds the first position strictly greater than the key's hash, so a key that hashes
# exactly onto a virtual node goes to the next one instead of that one.
import bisect
import hashlib


def ring_hash(s):
    return int.from_bytes(hashlib.md5(s.encode()).digest()[:8], "big")


class HashRing:
    def __init__(self, vnodes=100):
        self.vnodes = vnodes
        self._owner = {}
        self._keys = []
        self._nodes = set()

    def _rebuild(self):
        self._keys = sorted(self._owner)

    def add_node(self, node):
        if node in self._nodes:
            return
        self._nodes.add(node)
        for i in range(self.vnodes):
            self._owner[ring_hash(f"{node}#{i}")] = node
        self._rebuild()

    def remove_node(self, node):
        if node not in self._nodes:
            raise KeyError(node)
        self._nodes.remove(node)
        for i in range(self.vnodes):
            self._owner.pop(ring_hash(f"{node}#{i}"), None)
        self._rebuild()

    def get_node(self, key):
        if not self._keys:
            raise KeyError(key)
        i = bisect.bisect_right(self._keys, ring_hash(key)) % len(self._keys)
        return self._owner[self._keys[i]]
