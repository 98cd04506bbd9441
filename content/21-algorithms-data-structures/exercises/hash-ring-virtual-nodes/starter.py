import bisect  # noqa: F401
import hashlib


def ring_hash(text):
    return int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "big")


class HashRing:
    """Consistent hashing: each node has `vnodes` points at ring_hash(f"{node}#{i}"); a key goes clockwise."""

    def __init__(self, vnodes=100):
        self.vnodes = vnodes

    def add_node(self, node):
        raise NotImplementedError("add_node")

    def remove_node(self, node):
        raise NotImplementedError("remove_node")

    def get_node(self, key):
        # TODO: the first virtual node at or after ring_hash(key), wrapping around
        raise NotImplementedError("get_node")
