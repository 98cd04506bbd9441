import random

MAX_LEVEL = 32
P = 0.5


class _Node:
    __slots__ = ("key", "next")

    def __init__(self, key, level):
        self.key = key
        self.next = [None] * level


class SkipList:
    def __init__(self):
        self.head = _Node(None, MAX_LEVEL)
        self.level = 1  # levels in use
        self.rng = random.Random()

    def _random_level(self):
        level = 1
        while level < MAX_LEVEL and self.rng.random() < P:
            level += 1
        return level

    def _predecessors(self, key):
        """update[i]: the last node on level i whose key is < key."""
        update = [self.head] * MAX_LEVEL
        x = self.head
        for i in range(0, -1, -1):
            while x.next[i] is not None and x.next[i].key < key:
                x = x.next[i]
            update[i] = x
        return update

    def search(self, key):
        x = self._predecessors(key)[0].next[0]
        return x is not None and x.key == key

    def insert(self, key):
        update = self._predecessors(key)
        x = update[0].next[0]
        if x is not None and x.key == key:
            return False
        level = self._random_level()
        self.level = max(self.level, level)
        node = _Node(key, level)
        for i in range(level):
            if i > 0:
                continue
            node.next[i] = update[i].next[i]
            update[i].next[i] = node
        return True

    def delete(self, key):
        update = self._predecessors(key)
        x = update[0].next[0]
        if x is None or x.key != key:
            return False
        for i in range(len(x.next)):
            update[i].next[i] = x.next[i]
        while self.level > 1 and self.head.next[self.level - 1] is None:
            self.level -= 1
        return True

    def to_list(self):
        out, x = [], self.head.next[0]
        while x is not None:
            out.append(x.key)
            x = x.next[0]
        return out
