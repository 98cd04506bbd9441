import threading


class RingBuffer:
    """A bounded FIFO over a fixed list of slots: head is the next slot to read, (head + count) % capacity the next
    to write. One lock, two conditions: producers wait for space, consumers for items."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.slots = [None] * capacity
        self.head = 0
        self.count = 0
        self.lock = threading.Lock()
        self.not_full = threading.Condition(self.lock)
        self.not_empty = threading.Condition(self.lock)

    def put(self, item, timeout=None):
        with self.not_full:
            if not self.not_full.wait_for(lambda: self.count < self.capacity, timeout):
                raise TimeoutError("ring buffer full")
            self.slots[(self.head + self.count) % self.capacity] = item
            self.count += 1
            self.not_empty.notify()

    def get(self, timeout=None):
        with self.not_empty:
            if not self.not_empty.wait_for(lambda: self.count > 0, timeout):
                raise TimeoutError("ring buffer empty")
            item = self.slots[self.head]
            self.slots[self.head] = None  # drop the reference: the slot may hold a large buffer
            self.head = (self.head + 1) % self.capacity
            self.count -= 1
            self.not_full.notify()
            return item

    def size(self):
        with self.lock:
            return self.count
