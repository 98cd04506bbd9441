import random


def two_level_shuffle(shards, buffer_size, seed, epoch=0):
    """Shuffle the shard order, stream the shards through a bounded shuffle buffer, and return every item once."""
    rng = random.Random(seed + epoch)
    order = list(range(len(shards)))
    rng.shuffle(order)
    out, buffer = [], []
    for s in order:
        for item in shards[s]:
            buffer.append(item)
            if len(buffer) == buffer_size:
                j = rng.randrange(len(buffer))
                buffer[j], buffer[-1] = buffer[-1], buffer[j]
                out.append(buffer.pop())
    while buffer:  # drain what is left at the end of the stream
        j = rng.randrange(len(buffer))
        buffer[j], buffer[-1] = buffer[-1], buffer[j]
        out.append(buffer.pop())
    return out
