import hashlib


class PrefixCache:
    """Full KV blocks keyed by a hash chained through the prefix, so equal prefixes share blocks."""

    def __init__(self, block_size):
        self.block_size = block_size

    def block_hashes(self, token_ids, salt=None):
        """One hex-string key per FULL block: sha256 of (parent key, the block's tokens, salt on the first block)."""
        raise NotImplementedError("block_hashes")

    def allocate(self, token_ids, salt=None):
        """(block_ids, num_cached_tokens): reuse cached blocks for the longest cached prefix (at most
        len(token_ids) - 1 tokens), new ids from a counter for the rest; register new full blocks."""
        raise NotImplementedError("allocate")
