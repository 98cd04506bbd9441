import heapq

import torch


class PagedKVCache:
    """Keys and values in fixed-size blocks of one preallocated tensor, found through a block table per sequence."""

    def __init__(self, num_blocks, block_size, num_heads, head_dim, dtype=torch.float32):
        self.block_size = block_size
        self.kv_cache = torch.zeros(2, num_blocks, block_size, num_heads, head_dim, dtype=dtype)
        # TODO: the free blocks (lowest id first) and, per sequence, its block table and its length

    def append(self, seq_id, k, v):
        """Write k, v of shape (T, H, D) after the sequence's last token, taking new blocks only as needed;
        raise MemoryError (changing nothing) when there are not enough free blocks."""
        raise NotImplementedError("append")

    def block_table(self, seq_id):
        raise NotImplementedError("block_table")

    def slot_mapping(self, seq_id):
        raise NotImplementedError("slot_mapping")

    def gather(self, seq_id):
        """(K, V), each (length, H, D), read from kv_cache through the block table."""
        raise NotImplementedError("gather")

    def free(self, seq_id):
        raise NotImplementedError("free")

    def num_free_blocks(self):
        raise NotImplementedError("num_free_blocks")
