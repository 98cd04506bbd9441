import threading


class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = {}
        self.order = []  # least recently used first; remove() scans the list: O(n)
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            if key not in self.data:
                return None
            self.order.remove(key)
            self.order.append(key)
            return self.data[key]

    def put(self, key, value):
        with self.lock:
            if key in self.data:
                self.order.remove(key)
            elif len(self.data) >= self.capacity:
                del self.data[self.order.pop(0)]
            self.data[key] = value
            self.order.append(key)

    def size(self):
        with self.lock:
            return len(self.data)
