import heapq

import torch


class PagedKVCache:
    """Keys and values in fixed-size blocks of one preallocated tensor, found through a block table per sequence."""

    def __init__(self, num_blocks, block_size, num_heads, head_dim, dtype=torch.float32):
        self.block_size = block_size
        self.kv_cache = torch.zeros(2, num_blocks, block_size, num_heads, head_dim, dtype=dtype)
        self.free_blocks = list(range(num_blocks))  # a min-heap: the lowest free block id is handed out first
        self.tables = {}
        self.lengths = {}

    def append(self, seq_id, k, v):
        table = self.tables.get(seq_id, [])
        start = self.lengths.get(seq_id, 0)
        end = start + k.shape[0]
        needed = -(-end // self.block_size) - len(table)
        if needed > len(self.free_blocks):
            raise MemoryError(f"need {needed} blocks, {len(self.free_blocks)} free")
        table = table + [heapq.heappop(self.free_blocks) for _ in range(needed)]
        for i, t in enumerate(range(start, end)):
            block, offset = table[t // self.block_size], t % self.block_size
            self.kv_cache[0, block, offset] = k[i]
            self.kv_cache[1, block, offset] = v[i]
        self.tables[seq_id], self.lengths[seq_id] = table, end

    def block_table(self, seq_id):
        return list(self.tables.get(seq_id, []))

    def slot_mapping(self, seq_id):
        table = self.tables.get(seq_id, [])
        return [table[t // self.block_size] * self.block_size + t % self.block_size
                for t in range(self.lengths.get(seq_id, 0))]

    def gather(self, seq_id):
        slots = torch.tensor(self.slot_mapping(seq_id), dtype=torch.int64)
        flat = self.kv_cache.flatten(1, 2)  # (2, num_blocks * block_size, H, D): slot s is row s
        return flat[0, slots], flat[1, slots]

    def free(self, seq_id):
        self.tables.pop(seq_id, None)
        self.lengths.pop(seq_id, None)

    def num_free_blocks(self):
        return len(self.free_blocks)
