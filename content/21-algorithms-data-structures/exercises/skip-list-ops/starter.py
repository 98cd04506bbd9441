import random  # noqa: F401

MAX_LEVEL = 32


class SkipList:
    """Distinct keys in ascending order; expected O(log n) search, insert and delete."""

    def __init__(self):
        pass

    def search(self, key):
        raise NotImplementedError("search")

    def insert(self, key):
        # TODO: find update[i] on every level, pick a random height, link the node on each of its levels
        raise NotImplementedError("insert")

    def delete(self, key):
        raise NotImplementedError("delete")

    def to_list(self):
        raise NotImplementedError("to_list")
