"""Order and wraparound, full and empty timeouts, a blocked put woken by get (timed through observe), and two
producers with two consumers: every item once, each producer's items in order for every consumer."""

import sys
import threading
import time

from quiz.grader.say import say
from quiz.grader.threads import run_threads

_state = {"woke_after": -1.0}


def observe():
    return dict(_state)


def restore(state):
    _state.update(state)


def _guarded(body, timeout=3.0):
    return run_threads({"main": body}, timeout=timeout)["main"]


def _expect_timeout(action, what_en, what_zh):
    start = time.monotonic()
    try:
        got = action()
    except TimeoutError:
        waited = time.monotonic() - start
        assert waited < 1.0, say(f"{what_en}: gave up after {waited:.2f} s", f"{what_zh}：{waited:.2f} 秒后才放弃")
        return
    except Exception as exc:  # noqa: BLE001 - the wrong kind of error is the finding
        assert False, say(f"{what_en}: raised {type(exc).__name__} ({exc}), expected TimeoutError",
                          f"{what_zh}：抛出了 {type(exc).__name__}（{exc}），应为 TimeoutError")
    assert False, say(f"{what_en}: returned {got!r}, expected TimeoutError",
                      f"{what_zh}：返回了 {got!r}，应抛出 TimeoutError")


def test_fifo_and_wraparound(entry):
    def body():
        rb = entry(3)
        for x in ("a", "b", "c"):
            rb.put(x)
        got = [rb.get()]
        rb.put("d")  # this write wraps around to slot 0
        got += [rb.get(), rb.get(), rb.get()]
        assert got == ["a", "b", "c", "d"], say(
            f"capacity 3: put a, b, c; get; put d (wraps to slot 0); get x3 gave {got}, expected ['a', 'b', 'c', 'd'] "
            f"(first in, first out)",
            f"容量 3：put a、b、c；get；put d（绕回到第 0 个槽）；再 get 三次，得到 {got}，应为 ['a', 'b', 'c', 'd']（先进先出）",
        )
        for round_ in range(4):  # several laps around the ring
            items = [f"{round_}-{i}" for i in range(3)]
            for x in items:
                rb.put(x)
            n = rb.size()
            back = [rb.get() for _ in range(3)]
            assert back == items and n == 3, say(
                f"lap {round_} around a ring of 3: put {items}, size() {n}, got back {back}",
                f"在容量 3 的环上第 {round_} 圈：put {items}，size() {n}，取回 {back}",
            )

    _guarded(body)


def test_full_and_empty(entry):
    def body():
        rb = entry(2)
        _expect_timeout(lambda: rb.get(timeout=0.05), "get(timeout=0.05) on an empty buffer",
                        "空缓冲区上 get(timeout=0.05)")
        rb.put(1)
        rb.put(2)
        _expect_timeout(lambda: rb.put(3, timeout=0.05), "put(3, timeout=0.05) on a full buffer of 2 (never overwrite "
                        "the oldest item)", "容量 2 且已满时 put(3, timeout=0.05)（不能覆盖最旧的元素）")
        got = [rb.size(), rb.get(), rb.get()]
        assert got == [2, 1, 2], say(f"after the refused put: size(), get(), get() gave {got}, expected [2, 1, 2]",
                                     f"被拒绝的 put 之后：size()、get()、get() 得到 {got}，应为 [2, 1, 2]")

    _guarded(body)


def test_blocked_put_wakes_on_get(entry):
    rb = entry(1)
    rb.put("first")
    waiting = threading.Event()
    _state.update(woke_after=-1.0)

    def producer():
        waiting.set()
        start = time.monotonic()
        rb.put("second", timeout=2.0)
        _state["woke_after"] = time.monotonic() - start
        return "done"

    def consumer():
        waiting.wait(2.0)
        time.sleep(0.05)  # let the producer block on the full buffer first
        return rb.get()

    got = run_threads({"producer": producer, "consumer": consumer}, timeout=3.0)
    last = rb.get(timeout=1.0)  # a last call from the main thread: the judge restores the producer's timing here
    assert got["consumer"] == "first" and last == "second", say(
        f"capacity 1 holding 'first': a producer blocks putting 'second' while a consumer gets; the consumer got "
        f"{got['consumer']!r} and the next get {last!r}, expected 'first' then 'second'",
        f"容量 1，里面是 'first'：生产者 put 'second' 时阻塞，消费者 get；消费者得到 {got['consumer']!r}，"
        f"下一次 get 得到 {last!r}，应为 'first' 然后 'second'",
    )
    woke = _state["woke_after"]
    assert 0 <= woke < 1.0, say(
        f"the blocked put returned {woke:.2f} s after it started, although a slot was freed after about 0.05 s: get "
        f"must wake a waiting producer",
        f"阻塞的 put 在开始后 {woke:.2f} 秒才返回，而槽位在约 0.05 秒时就空出来了：get 要唤醒等待的生产者",
    )


def test_producers_and_consumers(entry):
    rb = entry(4)
    per_producer = 200
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)

    def producer(p):
        def run():
            for i in range(per_producer):
                rb.put(f"p{p}:{i}", timeout=1.5)
            return per_producer

        return run

    def consumer():
        return [rb.get(timeout=1.5) for _ in range(per_producer)]

    try:
        got = run_threads({"p0": producer(0), "p1": producer(1), "c0": consumer, "c1": consumer}, timeout=4.0)
    finally:
        sys.setswitchinterval(old)
    items = got["c0"] + got["c1"]
    want = sorted(f"p{p}:{i}" for p in (0, 1) for i in range(per_producer))
    assert sorted(map(str, items)) == want, say(
        f"2 producers x {per_producer} items, 2 consumers on a ring of 4: the consumers received "
        f"{len(set(map(str, items)))} distinct of {len(want)} items ({len(items) - len(set(map(str, items)))} "
        f"duplicates): an item was lost or delivered twice",
        f"2 个生产者各 {per_producer} 个元素，2 个消费者，环容量 4：消费者收到 {len(want)} 个中的 "
        f"{len(set(map(str, items)))} 个不同元素（重复 {len(items) - len(set(map(str, items)))} 个）：有元素丢失或被投递两次",
    )
    for c in ("c0", "c1"):
        for p in (0, 1):
            seq = [int(x.split(":")[1]) for x in got[c] if x.startswith(f"p{p}:")]
            assert seq == sorted(seq), say(
                f"consumer {c} received producer p{p}'s items out of order ({seq[:8]}...): a FIFO hands one "
                f"producer's items out in the order they were put",
                f"消费者 {c} 收到生产者 p{p} 的元素顺序错乱（{seq[:8]}...）：FIFO 应按放入的顺序交出同一生产者的元素",
            )



def test_get_wakes_a_producer_not_a_consumer(entry):
    # Capacity 1, two consumers waiting on the empty ring. The producer puts 'x' (waking one consumer) and at once
    # 'y', which waits on the full ring. The consumer that takes 'x' must wake the producer. With a single condition
    # for both kinds of waiter and notify(), it wakes the other consumer instead (first in line), which finds the
    # ring empty and sleeps again: the producer only gets on when its own timeout runs out.
    for trial in range(2):
        rb = entry(1)
        ready = [threading.Event(), threading.Event()]
        _state.update(second_put=-1.0)

        def consumer(i):
            def run():
                ready[i].set()
                try:
                    return rb.get(timeout=0.6)
                except TimeoutError:
                    return None

            return run

        def producer():
            for ev in ready:
                ev.wait(2.0)
            time.sleep(0.05)  # let both consumers block on the empty ring first
            try:
                rb.put("x", timeout=0.4)
                start = time.monotonic()
                rb.put("y", timeout=0.4)
                _state["second_put"] = time.monotonic() - start
            except TimeoutError as exc:
                return f"TimeoutError ({exc})"
            return "done"

        got = run_threads({"c0": consumer(0), "c1": consumer(1), "producer": producer}, timeout=3.0)
        rb.size()  # a last call from the main thread: the judge restores the producer's timing here
        received = sorted(str(got[c]) for c in ("c0", "c1"))
        took = _state["second_put"]
        assert got["producer"] == "done" and received == ["x", "y"] and 0 <= took < 0.25, say(
            f"capacity 1, two consumers waiting in get, then one producer puts 'x' and 'y': the producer returned "
            f"{got['producer']!r} (its put of 'y' took {took:.2f} s) and the consumers got {got['c0']!r} and "
            f"{got['c1']!r}; expected 'done' within milliseconds, and 'x', 'y'. The get that takes 'x' has to wake the "
            f"producer waiting on the full ring; with one condition shared by producers and consumers, notify() wakes "
            f"the other waiting consumer instead, and the producer waits out its timeout (use two conditions, "
            f"not_full and not_empty)",
            f"容量 1，两个消费者在 get 里等待，然后一个生产者 put 'x' 和 'y'：生产者返回 {got['producer']!r}"
            f"（put 'y' 用了 {took:.2f} 秒），消费者得到 {got['c0']!r} 和 {got['c1']!r}；应在几毫秒内返回 'done'，"
            f"消费者得到 'x'、'y'。取走 'x' 的 get 要唤醒在满环上等待的生产者；生产者和消费者共用一个条件变量时，"
            f"notify() 唤醒的却是另一个在等的消费者，生产者只能等到自己超时（用 not_full、not_empty 两个条件变量）",
        )
