import threading


class _Node:
    __slots__ = ("key", "value", "prev", "next")

    def __init__(self, key=None, value=None):
        self.key, self.value, self.prev, self.next = key, value, None, None


class LRUCache:
    """A dict of key -> node plus a doubly linked list (head side = least recently used), under one lock."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.map = {}
        self.head, self.tail = _Node(), _Node()  # sentinels
        self.head.next, self.tail.prev = self.tail, self.head
        self.lock = threading.Lock()

    def _unlink(self, node):
        node.prev.next, node.next.prev = node.next, node.prev

    def _append(self, node):  # most recently used, just before the tail sentinel
        node.prev, node.next = self.tail.prev, self.tail
        self.tail.prev.next = node
        self.tail.prev = node

    def get(self, key):
        with self.lock:
            node = self.map.get(key)
            if node is None:
                return None
            self._unlink(node)
            self._append(node)
            return node.value

    def put(self, key, value):
        with self.lock:
            node = self.map.get(key)
            if node is not None:
                node.value = value
                self._unlink(node)
                self._append(node)
                return
            if len(self.map) >= self.capacity:
                lru = self.tail.prev
                self._unlink(lru)
                del self.map[lru.key]
            node = _Node(key, value)
            self.map[key] = node
            self._append(node)

    def size(self):
        with self.lock:
            return len(self.map)
