import threading  # noqa: F401


class RingBuffer:
    """A bounded FIFO of `capacity` slots with wraparound.

    put(item, timeout=None): waits while full; TimeoutError if still full after `timeout` seconds.
    get(timeout=None) -> item: waits while empty; TimeoutError if still empty after `timeout` seconds.
    size() -> number of items held.
    """

    def __init__(self, capacity):
        self.capacity = capacity
        self.slots = [None] * capacity

    def put(self, item, timeout=None):
        # TODO: wait for space, write at (head + count) % capacity, wake a consumer
        raise NotImplementedError("put")

    def get(self, timeout=None):
        # TODO: wait for an item, read at head, advance head with wraparound, wake a producer
        raise NotImplementedError("get")

    def size(self):
        raise NotImplementedError("size")
