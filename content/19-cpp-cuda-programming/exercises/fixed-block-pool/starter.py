import threading  # noqa: F401


class BlockPool:
    """num_blocks blocks of block_size bytes, handed out by index (0 .. num_blocks-1).

    allocate(timeout=None) -> index: the most recently freed block first; waits while none is free;
        TimeoutError when `timeout` seconds pass first.
    free(index): ValueError for an index outside the pool or a block that is already free.
    available() -> number of free blocks.
    """

    def __init__(self, num_blocks, block_size):
        self.num_blocks = num_blocks
        self.block_size = block_size

    def allocate(self, timeout=None):
        # TODO: a Condition around a LIFO free list; wait_for a free block with the timeout
        raise NotImplementedError("allocate")

    def free(self, block):
        raise NotImplementedError("free")

    def available(self):
        raise NotImplementedError("available")
