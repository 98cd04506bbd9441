import threading
import time


class BlockPool:
    def __init__(self, num_blocks, block_size):
        self.num_blocks = num_blocks
        self.free_list = list(range(num_blocks - 1, -1, -1))
        self.is_free = [True] * num_blocks

    def _top(self):
        return self.free_list[-1]

    def _mark_used(self, block):
        time.sleep(0)  # a log line or a metrics call here: anything that may block lets another thread in
        self.is_free[block] = False

    def allocate(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self.free_list:  # check, then act, with no lock: two threads can read the same top block
                block = self._top()
                self._mark_used(block)
                self.free_list.pop()
                return block
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("no free block")
            time.sleep(0.0005)

    def free(self, block):
        if not (type(block) is int and 0 <= block < self.num_blocks):
            raise ValueError(f"block {block!r} is not in this pool")
        if self.is_free[block]:
            raise ValueError(f"block {block} is already free")
        self.is_free[block] = True
        self.free_list.append(block)

    def available(self):
        return len(self.free_list)
