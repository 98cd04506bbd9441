import threading  # noqa: F401
from collections import OrderedDict  # noqa: F401


class LRUCache:
    """get/put in O(1), least recently used evicted first, safe to call from several threads."""

    def __init__(self, capacity):
        self.capacity = capacity

    def get(self, key):
        # TODO: on a hit, make the key most recently used and return its value; None on a miss
        raise NotImplementedError("get")

    def put(self, key, value):
        # TODO: update or insert as most recently used; evict the least recently used key when a new key overflows
        raise NotImplementedError("put")

    def size(self):
        raise NotImplementedError("size")
