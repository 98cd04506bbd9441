import random


def two_level_shuffle(shards, buffer_size, seed, epoch=0):
    rng = random.Random(seed + epoch)
    out = []
    for shard in shards:  # each shard shuffled on its own, shards kept in their order
        items = list(shard)
        rng.shuffle(items)
        out.extend(items)
    return out
