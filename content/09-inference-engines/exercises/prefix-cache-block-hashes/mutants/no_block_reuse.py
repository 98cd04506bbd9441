import hashlib


class PrefixCache:
    """Full KV blocks keyed by a hash chained through the prefix, so equal prefixes share blocks."""

    ROOT = "prefix-root"  # stands in for the parent of the first block

    def __init__(self, block_size):
        self.block_size = block_size
        self.cached = {}  # block key -> block id
        self.next_id = 0

    def block_hashes(self, token_ids, salt=None):
        keys, parent = [], self.ROOT
        for start in range(0, len(token_ids) - self.block_size + 1, self.block_size):
            block = tuple(token_ids[start:start + self.block_size])
            extra = salt if start == 0 else None  # the salt reaches later blocks through the chain
            parent = hashlib.sha256(repr((parent, block, extra)).encode()).hexdigest()
            keys.append(parent)
        return keys

    def allocate(self, token_ids, salt=None):
        keys = self.block_hashes(token_ids, salt)
        limit = (len(token_ids) - 1) // self.block_size  # keep one token to compute, for the logits
        ids, hits = [], 0
        for key in keys[:limit]:
            if key not in self.cached:
                break
            hits += 1
        num_cached_tokens = hits * self.block_size
        total = -(-len(token_ids) // self.block_size)
        for i in range(total):  # a fresh block for every block of the prompt
            ids.append(self.next_id)
            if i < len(keys):
                self.cached.setdefault(keys[i], self.next_id)  # only full blocks are registered
            self.next_id += 1
        return ids, num_cached_tokens
