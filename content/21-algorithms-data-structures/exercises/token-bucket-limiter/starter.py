class TokenBucket:
    """Allow on average `rate` requests per second, bursts of up to `capacity`.

    TokenBucket(rate, capacity, clock): clock() gives the time in seconds; the bucket starts full.
    allow(n=1) -> bool: refill from the elapsed time (never beyond capacity), then take n tokens if there are n.
    """

    def __init__(self, rate, capacity, clock):
        self.rate = rate
        self.capacity = capacity
        self.clock = clock

    def allow(self, n=1):
        # TODO: refill by (now - last) * rate, capped at capacity; take n tokens if enough, else take none
        raise NotImplementedError("allow")
