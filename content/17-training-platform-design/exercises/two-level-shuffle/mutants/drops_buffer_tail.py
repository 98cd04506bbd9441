import random


def two_level_shuffle(shards, buffer_size, seed, epoch=0):
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
    return out  # the stream ended: nothing more to emit
