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
                out.append(buffer.pop(rng.randrange(len(buffer))))  # pop(j) shifts everything after j
    while buffer:
        out.append(buffer.pop(rng.randrange(len(buffer))))
    return out
