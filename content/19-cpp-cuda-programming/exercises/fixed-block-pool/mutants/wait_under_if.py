# Wrong: waits once under `if` instead of looping (wait_for): a thread woken by free can find the list
# emptied again by a thread that took the block first, and pops from an empty list.
import threading


class BlockPool:
    """A fixed number of equal-sized blocks handed out by index; the free list is a LIFO stack under one lock."""

    def __init__(self, num_blocks, block_size):
        self.block_size = block_size
        self.num_blocks = num_blocks
        self.free_list = list(range(num_blocks - 1, -1, -1))  # block 0 on top
        self.is_free = [True] * num_blocks
        self.cond = threading.Condition()

    def allocate(self, timeout=None):
        with self.cond:
            if not self.free_list:
                if not self.cond.wait(timeout):
                    raise TimeoutError(f"no free block within {timeout} s")
            block = self.free_list.pop()
            self.is_free[block] = False
            return block

    def free(self, block):
        with self.cond:
            if not (type(block) is int and 0 <= block < self.num_blocks):
                raise ValueError(f"block {block!r} is not in this pool")
            if self.is_free[block]:
                raise ValueError(f"block {block} is already free (double free)")
            self.is_free[block] = True
            self.free_list.append(block)
            self.cond.notify()

    def available(self):
        with self.cond:
            return len(self.free_list)
