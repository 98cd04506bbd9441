# Wrong: one condition for producers and consumers with notify(): a get can wake another waiting consumer
# instead of the producer waiting on the full ring, which then sits until its timeout.
import threading


class RingBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.slots = [None] * capacity
        self.head = 0
        self.count = 0
        self.cond = threading.Condition()

    def put(self, item, timeout=None):
        with self.cond:
            if not self.cond.wait_for(lambda: self.count < self.capacity, timeout):
                raise TimeoutError("full")
            self.slots[(self.head + self.count) % self.capacity] = item
            self.count += 1
            self.cond.notify()

    def get(self, timeout=None):
        with self.cond:
            if not self.cond.wait_for(lambda: self.count > 0, timeout):
                raise TimeoutError("empty")
            item = self.slots[self.head]
            self.head = (self.head + 1) % self.capacity
            self.count -= 1
            self.cond.notify()
            return item

    def size(self):
        with self.cond:
            return self.count
