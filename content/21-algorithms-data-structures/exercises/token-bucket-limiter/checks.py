"""A fake clock, a reference token bucket and the tests: burst, refill rate, cap, rejection, a random run."""

import random

from quiz.grader.say import say


class FakeClock:
    """Time moves only when the test says so; the learner reads it by calling the clock."""

    def __init__(self, t=0.0):
        self.t = t

    def __call__(self):
        return self.t


class Reference:
    def __init__(self, rate, capacity, t):
        self.rate, self.capacity, self.tokens, self.last = rate, capacity, float(capacity), t

    def allow(self, n, now):
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False


def _allow(bucket, n, when):
    got = bucket.allow(n)
    assert type(got) is bool, say(f"allow({n}) at t={when} should return True or False, got {got!r}",
                                  f"t={when} 时 allow({n}) 应返回 True 或 False，实际是 {got!r}")
    return got


def _count_burst(bucket, when, limit=50):
    """How many allow(1) calls in a row succeed at one instant (stops at the first False)."""
    for i in range(limit):
        if not _allow(bucket, 1, when):
            return i
    return limit


def test_initial_burst(entry):
    for rate, cap in ((1.0, 5), (4.0, 3), (0.5, 8)):
        clock = FakeClock(100.0)
        got = _count_burst(entry(rate, cap, clock), 100.0)
        assert got == cap, say(
            f"rate={rate}, capacity={cap}: at the start {got} requests in a row were allowed; the bucket starts full, "
            f"so exactly {cap}" + (" (a bucket that starts empty allows none)" if got == 0 else ""),
            f"rate={rate}，capacity={cap}：开始时连续放行了 {got} 个请求；桶一开始是满的，应正好 {cap} 个"
            + ("（桶从空开始就一个也放不了）" if got == 0 else ""),
        )


def test_refill_rate(entry):
    clock = FakeClock(0.0)
    bucket = entry(2.0, 4, clock)
    _count_burst(bucket, 0.0)
    for t, want in ((0.25, False), (0.5, True), (0.75, False), (1.0, True), (1.5, True)):
        clock.t = t
        got = _allow(bucket, 1, t)
        assert got == want, say(
            f"rate=2/s, bucket emptied at t=0: allow(1) at t={t} returned {got}, expected {want} "
            f"(one token every 0.5 s; a refill measured from the start instead of from the last call, or the rate "
            f"inverted, gives other answers)",
            f"rate=2/s，t=0 时桶已用空：t={t} 时 allow(1) 返回 {got}，应为 {want}（每 0.5 秒一个令牌；"
            f"从起点而非上次调用算补充量，或把速率算反，都会给出别的结果）",
        )


def test_refill_is_capped(entry):
    clock = FakeClock(10.0)
    bucket = entry(1.0, 3, clock)
    _count_burst(bucket, 10.0)
    clock.t = 1010.0
    got = _count_burst(bucket, 1010.0)
    assert got == 3, say(
        f"rate=1/s, capacity=3, idle for 1000 s: {got} requests in a row were allowed; the bucket holds at most "
        f"capacity tokens, so the burst is 3 (a refill without min(capacity, ...) lets an idle tenant flood the backend)",
        f"rate=1/s，capacity=3，空闲 1000 秒：连续放行了 {got} 个请求；桶里最多 capacity 个令牌，突发应为 3"
        f"（补充时少了 min(capacity, ...)，空闲的租户就能一下子压垮后端）",
    )


def test_reject_takes_nothing(entry):
    clock = FakeClock(0.0)
    bucket = entry(1.0, 4, clock)
    assert _allow(bucket, 2, 0.0), say("allow(2) on a full bucket of 4 should be True", "满桶 4 个时 allow(2) 应为 True")
    assert not _allow(bucket, 3, 0.0), say("allow(3) with 2 tokens left should be False",
                                           "只剩 2 个令牌时 allow(3) 应为 False")
    got = _allow(bucket, 2, 0.0)
    assert got, say(
        "after a rejected allow(3), allow(2) with the 2 remaining tokens should be True: a rejected request must "
        "not take any tokens",
        "allow(3) 被拒绝之后，剩下的 2 个令牌应让 allow(2) 返回 True：被拒绝的请求不能扣令牌",
    )


def test_random_sequence(entry, seed):
    rng = random.Random(seed)
    rate = rng.choice([0.5, 1.0, 2.0, 4.0])
    cap = rng.randint(1, 6)
    t = float(rng.randint(0, 1000))
    clock = FakeClock(t)
    bucket = entry(rate, cap, clock)
    ref = Reference(rate, cap, t)
    for step in range(120):
        t += rng.choice([0.0, 0.0, 0.25, 0.5, 1.0, 2.5])
        clock.t = t
        n = rng.choice([1, 1, 1, 2, 3])
        want = ref.allow(n, t)
        got = _allow(bucket, n, t)
        assert got == want, say(
            f"rate={rate}, capacity={cap}: request {step} (allow({n}) at t={t}) returned {got}, expected {want}",
            f"rate={rate}，capacity={cap}：第 {step} 个请求（t={t} 时 allow({n})）返回 {got}，应为 {want}",
        )
