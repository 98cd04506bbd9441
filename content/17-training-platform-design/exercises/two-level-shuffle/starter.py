import random


def two_level_shuffle(shards, buffer_size, seed, epoch=0):
    """Shuffle the shard order with random.Random(seed + epoch), then pass the items through a shuffle buffer
    of `buffer_size`; return a list holding every item exactly once."""
    rng = random.Random(seed + epoch)
    # TODO: shuffle the shard order, then fill the buffer and emit a random item each time it is full; drain it
    return [item for shard in shards for item in shard]
