import threading
from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            if key not in self.data:
                return None
            self.data.move_to_end(key)
            return self.data[key]

    def put(self, key, value):
        with self.lock:
            if self.get(key) is not None:  # get takes the same non-reentrant lock: waits for itself
                pass
            elif len(self.data) >= self.capacity:
                self.data.popitem(last=False)
            self.data[key] = value

    def size(self):
        with self.lock:
            return len(self.data)
