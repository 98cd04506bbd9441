"""An event-driven reference for Triton's dynamic batching rule (times from a heapq), switches that reproduce the usual
mistakes, and traces to judge with."""

import heapq

import torch

from quiz.grader.say import say

_Generator = torch.Generator
_randint = torch.randint


def _decide(queue, reqs, now, max_batch, preferred, delay, mistake, last_arrival):
    """(how many queued requests to send now, or None to wait) by the rule of the statement."""
    max_pref = max(preferred)
    pending = count = best_size = best_count = 0
    full = False
    for rid in queue:
        size = reqs[rid][1]
        if count:
            if pending + size > max_pref and not best_size and mistake != "no_overshoot_rule":
                best_size, best_count = pending, count
            if pending + size > max_batch:
                full = True
                break
        pending += size
        count += 1
        if pending in preferred:
            best_size, best_count = pending, count
            if mistake == "smallest_preferred":
                break
    start = last_arrival if mistake == "delay_from_newest" else reqs[queue[0]][0]
    exceeded = delay > 0 and now - start >= delay
    if best_size and not exceeded and mistake != "ignores_preferred":
        return best_count, None
    if full or (pending >= max_pref and mistake != "ignores_preferred") or pending >= max_batch or exceeded or delay == 0:
        return count, None
    return None, start + delay


def reference(reqs, max_batch, preferred=(), delay=0, mistake=None):
    preferred = set(preferred) or {max_batch}
    events = [t for t, _ in reqs]
    heapq.heapify(events)
    queue, out, i, last = [], [], 0, None
    while events:
        now = heapq.heappop(events)
        if mistake == "one_at_a_time":  # one event per request: queue one, decide, then the next
            if i < len(reqs) and reqs[i][0] <= now:
                queue.append(i)
                last = reqs[i][0]
                i += 1
        else:
            while events and events[0] == now:
                heapq.heappop(events)
            while i < len(reqs) and reqs[i][0] <= now:
                queue.append(i)
                last = reqs[i][0]
                i += 1
        while queue:
            take, wake = _decide(queue, reqs, now, max_batch, preferred, delay, mistake, last)
            if take is None:
                heapq.heappush(events, wake)
                break
            out.append((now, queue[:take]))
            queue = queue[take:]
        if len(out) > 10_000:
            break
    return out


MISTAKES = {
    "smallest_preferred": ("the first preferred size the queue reached was sent; Triton sends the largest preferred "
                           "size the queued requests can form",
                           "队列一凑到某个首选大小就发出了；Triton 发送的是队列里的请求能凑成的最大首选大小"),
    "one_at_a_time": ("requests that arrive at the same time judged one by one; queue every request that has "
                      "arrived by now, then decide, or a burst is cut into the first batch sizes it passes through",
                      "同一时刻到达的请求被逐个判断了；应先把到此刻为止到达的请求全部入队再做决定，否则一波突发请求会在"
                      "途经的第一个批大小处就被切开"),
    "delay_from_newest": ("the delay counted from the newest request; max_queue_delay_microseconds bounds how long the "
                          "oldest queued request waits, so new arrivals must not push the deadline back",
                          "延迟从最新到达的请求算起；max_queue_delay_microseconds 限制的是队列中最老请求的等待时间，"
                          "新请求到达不能推迟截止时刻"),
    "ignores_preferred": ("a batch of a preferred size was held back to wait for max_batch_size or the delay; a "
                          "preferred size goes out as soon as it can be formed",
                          "已经能凑成首选大小的批却被扣住，去等 max_batch_size 或延迟到期；能凑成首选大小就应立刻发出"),
    "no_overshoot_rule": ("the batch grew past the largest preferred size before the delay ran out; when the next "
                          "request would carry it past the largest preferred size, Triton sends the batch as it was "
                          "before that request, at once",
                          "延迟未到时批就长过了最大首选大小；当下一个请求会让批超过最大首选大小时，Triton 立刻把加入它之前的批发出"),
}


def _call(entry, reqs, max_batch, preferred, delay):
    got = entry([tuple(r) for r in reqs], max_batch, tuple(preferred), delay)
    assert isinstance(got, (list, tuple)), say(f"dynamic_batches should return a list, got {type(got).__name__}",
                                               f"dynamic_batches 应返回列表，实际是 {type(got).__name__}")
    out = []
    for item in got:
        ok = isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[1], (list, tuple))
        assert ok, say(f"each batch should be a pair (dispatch_time_us, [request ids]), got {item!r}",
                       f"每个批应是二元组 (dispatch_time_us, [请求 id])，实际是 {item!r}")
        out.append((item[0], list(item[1])))
    return out


def _compare(entry, reqs, max_batch, preferred=(), delay=0, note=("", "")):
    got = _call(entry, reqs, max_batch, preferred, delay)
    want = reference(reqs, max_batch, preferred, delay)
    if got == want:
        return
    k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), min(len(got), len(want)))
    names = [n for n in MISTAKES if got == reference(reqs, max_batch, preferred, delay, n)]
    hint = say(f" This looks like {MISTAKES[names[0]][0]}.", f"看起来是这个错误：{MISTAKES[names[0]][1]}。") if names else ""
    if len(names) > 1:
        hint += say(f" It could also be {MISTAKES[names[1]][0]}.", f"也可能是：{MISTAKES[names[1]][1]}。")
    trace = ", ".join(f"{t}" if s == 1 else f"{t}(x{s})" for t, s in reqs[:14]) + (" ..." if len(reqs) > 14 else "")
    shown = list(preferred) or say(f"[] (so [{max_batch}])", f"[]（即 [{max_batch}]）")
    config = f"max_batch_size {max_batch}, preferred_batch_size {shown}, max_queue_delay_us {delay}"
    at = (say(f"batch {k}: expected {want[k]}, got {got[k]}", f"第 {k} 个批：应为 {want[k]}，实际是 {got[k]}")
          if k < len(got) and k < len(want) else
          say(f"expected {len(want)} batches, got {len(got)}", f"应有 {len(want)} 个批，实际有 {len(got)} 个"))
    raise AssertionError(say(
        f"{config}; arrivals (us, x batch size) {trace}: {at}.{hint}{note[0]} All expected: {want}",
        f"{config}；到达时刻（微秒，x 批大小）{trace}：{at}。{hint}{note[1]}全部应为：{want}"))


def test_no_delay_sends_what_is_queued(entry):
    _compare(entry, [(0, 1), (0, 1), (0, 1), (5, 1), (5, 1), (9, 1)], 8, note=(
        " With no delay and a free instance, the batcher sends whatever is queued at once.",
        "没有延迟且实例空闲时，批处理器立刻发出队列里现有的请求。"))


def test_max_batch_size_splits_a_burst(entry):
    _compare(entry, [(0, 1)] * 10, 4)


def test_delay_lets_a_batch_grow(entry):
    _compare(entry, [(t, 1) for t in range(0, 300, 30)], 8, (), 100, note=(
        " Nothing reaches a preferred size (8), so each batch leaves when its oldest request has waited 100 us.",
        "没有批能达到首选大小（8），所以每个批在其中最老的请求等满 100 微秒时发出。"))


def test_a_full_batch_does_not_wait(entry):
    _compare(entry, [(t, 1) for t in range(0, 100, 10)], 4, (), 1000)


def test_largest_preferred_size_goes_at_once(entry):
    _compare(entry, [(0, 1)] * 7, 8, (2, 4), 1000, note=(
        " Seven requests at once: 4 is the largest preferred size they can form, then 2; the last one waits.",
        "同时到达 7 个请求：能凑成的最大首选大小是 4，然后是 2；最后一个等待。"))
    _compare(entry, [(t, 1) for t in range(0, 50, 10)], 8, (2, 4), 1000)


def test_delay_counts_from_the_oldest_request(entry):
    _compare(entry, [(0, 1), (80, 1), (160, 1)], 8, (), 100, note=(
        " The request at 0 may wait only until 100, however many arrive after it.",
        "0 时刻到达的请求最多只能等到 100，不管之后又来了多少请求。"))


def test_expired_delay_sends_a_smaller_batch(entry):
    _compare(entry, [(0, 1), (20, 1), (50, 1)], 8, (4,), 100)


def test_requests_with_batch_sizes(entry):
    _compare(entry, [(0, 3), (10, 2)], 8, (4,), 100, note=(
        " 3 + 2 would pass the largest preferred size 4, so the batch of 3 goes at 10, before the delay ends.",
        "3 + 2 会超过最大首选大小 4，所以 3 的批在 10 时刻就发出，不等延迟到期。"))
    _compare(entry, [(0, 2), (5, 3), (7, 2), (30, 4)], 8, (4, 8), 50)


def _trace(seed, count, max_size):
    gen = _Generator().manual_seed(seed)
    t, out = 0, []
    for _ in range(count):
        t += int(_randint(0, 60, (1,), generator=gen))
        out.append((t, int(_randint(1, max_size + 1, (1,), generator=gen))))
    return out


def test_random_traces(entry):
    _compare(entry, _trace(1, 40, 1), 8, (4, 8), 150)
    _compare(entry, _trace(2, 40, 3), 16, (4, 8, 12), 200)
    _compare(entry, _trace(3, 30, 2), 6, (), 80)
