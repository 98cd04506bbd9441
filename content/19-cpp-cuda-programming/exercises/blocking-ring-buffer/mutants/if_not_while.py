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
            if self.count == self.capacity:  # checked once: another producer may fill the slot before we run
                if not self.cond.wait(timeout):
                    raise TimeoutError("ring buffer full")
            self.slots[(self.head + self.count) % self.capacity] = item
            self.count += 1
            self.cond.notify_all()

    def get(self, timeout=None):
        with self.cond:
            if self.count == 0:  # checked once: another consumer may take the item before we run
                if not self.cond.wait(timeout):
                    raise TimeoutError("ring buffer empty")
            item = self.slots[self.head]
            self.slots[self.head] = None
            self.head = (self.head + 1) % self.capacity
            self.count -= 1
            self.cond.notify_all()
            return item

    def size(self):
        with self.cond:
            return self.count
