"""Single-threaded order and errors; a blocked allocate woken by a free; a 4-thread stress test whose
double-allocation count is kept by the test in the learner's child and reaches the judge through observe()."""

import sys
import threading
import time

from quiz.grader.say import say
from quiz.grader.threads import run_threads

_state = {"conflicts": 0, "example": "", "woke_after": -1.0}
_held = {}
_held_lock = threading.Lock()


def observe():
    return dict(_state)


def restore(state):
    _state.update(state)


def _guarded(body, timeout=3.0):
    return run_threads({"main": body}, timeout=timeout)["main"]


def _expect(exc_type, action, what_en, what_zh):
    try:
        got = action()
    except exc_type:
        return
    except Exception as exc:  # noqa: BLE001 - the wrong kind of error is the finding
        assert False, say(f"{what_en}: raised {type(exc).__name__} ({exc}), expected {exc_type.__name__}",
                          f"{what_zh}：抛出了 {type(exc).__name__}（{exc}），应为 {exc_type.__name__}")
    assert False, say(f"{what_en}: returned {got!r}, expected {exc_type.__name__}",
                      f"{what_zh}：返回了 {got!r}，应抛出 {exc_type.__name__}")


def test_lifo_order(entry):
    def body():
        pool = entry(6, 4096)
        got = [pool.allocate() for _ in range(6)]
        assert got == [0, 1, 2, 3, 4, 5], say(f"a fresh pool of 6 hands out {got}, expected blocks 0..5 in order",
                                             f"新建的 6 块的池依次给出 {got}，应为 0..5 的顺序")
        pool.free(2)
        pool.free(5)
        n = pool.available()
        assert n == 2, say(f"after freeing 2 blocks, available() is {n}", f"释放 2 块之后 available() 是 {n}")
        got = [pool.allocate(), pool.allocate()]
        assert got == [5, 2], say(
            f"free(2), free(5), then two allocates gave {got}; expected [5, 2]: the most recently freed block first "
            f"(LIFO: its memory is most likely still in cache)",
            f"free(2)、free(5) 之后两次 allocate 得到 {got}；应为 [5, 2]：最近释放的块先给出（LIFO：它的内存最可能还在缓存里）",
        )

    _guarded(body)


def test_errors(entry):
    def body():
        pool = entry(2, 64)
        a = pool.allocate()
        pool.free(a)
        _expect(ValueError, lambda: pool.free(a), f"free({a}) twice", f"两次 free({a})")
        _expect(ValueError, lambda: pool.free(7), "free(7) in a pool of 2 blocks", "在 2 块的池里 free(7)")
        pool.allocate()
        pool.allocate()
        # with every block held, -1 would index the last block: a check of only `block >= num_blocks` frees it
        _expect(ValueError, lambda: pool.free(-1), "free(-1) while both blocks are allocated (a negative index is not "
                "a block; list[-1] is the last one)", "两块都已分配时 free(-1)（负数不是块号；list[-1] 是最后一块）")
        start = time.monotonic()
        _expect(TimeoutError, lambda: pool.allocate(timeout=0.05), "allocate(timeout=0.05) with no free block",
                "没有空闲块时 allocate(timeout=0.05)")
        waited = time.monotonic() - start
        assert waited < 1.0, say(f"allocate(timeout=0.05) took {waited:.2f} s to give up",
                                 f"allocate(timeout=0.05) 过了 {waited:.2f} 秒才放弃")
        n = pool.available()
        assert n == 0, say(f"after the failed allocate, available() is {n}, expected 0",
                           f"失败的 allocate 之后 available() 是 {n}，应为 0")

    _guarded(body)


def test_blocked_allocate_wakes_on_free(entry):
    pool = entry(1, 64)
    first = pool.allocate()
    waiting = threading.Event()
    _state.update(woke_after=-1.0)

    def waiter():
        waiting.set()
        start = time.monotonic()
        got = pool.allocate(timeout=2.0)
        _state["woke_after"] = time.monotonic() - start
        return got

    def releaser():
        waiting.wait(2.0)
        time.sleep(0.05)  # let the waiter block first
        pool.free(first)
        return first

    got = run_threads({"waiter": waiter, "releaser": releaser}, timeout=3.0)
    pool.available()  # a last call from the main thread: the judge restores the waiter's timing here
    assert got["waiter"] == first, say(
        f"a pool of 1 block: one thread waits in allocate while another frees block {first}; the waiter got "
        f"{got['waiter']!r}, expected {first}",
        f"1 块的池：一个线程在 allocate 里等待，另一个线程释放块 {first}；等待者得到 {got['waiter']!r}，应为 {first}",
    )
    woke = _state["woke_after"]
    assert 0 <= woke < 1.0, say(
        f"the waiting allocate returned {woke:.2f} s after it started, although the block was freed after about "
        f"0.05 s: free must wake a waiter (notify the condition), not leave it to its timeout",
        f"等待中的 allocate 在开始后 {woke:.2f} 秒才返回，而块在约 0.05 秒时就释放了：free 要唤醒等待者（notify 条件变量），"
        f"而不是让它等到超时",
    )


def _stress_step(pool, name, got):
    """One allocate/free by thread `name`; the test's own map of who holds what counts double allocations."""
    b = pool.allocate(timeout=2.0)
    with _held_lock:
        if b in _held:
            _state["conflicts"] += 1
            _state["example"] = f"block {b} given to {name} while {_held[b]} held it"
        _held[b] = name
    got.append(b)
    time.sleep(0)
    with _held_lock:
        if _held.get(b) == name:
            del _held[b]
    pool.free(b)


def test_four_threads(entry):
    blocks, threads, rounds = 3, 4, 150
    pool = entry(blocks, 64)
    _state.update(conflicts=0, example="")
    _held.clear()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)

    def work(name):
        def run():
            got = []
            for step in range(rounds):
                try:
                    _stress_step(pool, name, got)
                except Exception as exc:  # noqa: BLE001 - reported with its likely cause
                    raise AssertionError(say(
                        f"thread {name}, round {step}: your code raised {type(exc).__name__} ({exc}) while {threads} "
                        f"threads shared the pool: two threads changed the free list at once (a missing lock), or a "
                        f"woken thread found the list empty again (wait under `if` instead of `while` / wait_for: another thread "
                        f"may take the block first)",
                        f"线程 {name}，第 {step} 轮：{threads} 个线程共用池时你的代码抛出 {type(exc).__name__}（{exc}）："
                        f"两个线程同时改了空闲链表（没加锁），或被唤醒的线程发现链表又空了（用 `if` 而不是 `while` / "
                        f"wait_for 包住 wait：别的线程可能先拿走了块）",
                    )) from None
            return got

        return run

    try:
        run_threads({f"t{i}": work(f"t{i}") for i in range(threads)}, timeout=8.0)
    finally:
        sys.setswitchinterval(old)
    n = pool.available()  # a last call from the main thread: the judge restores the final counts here
    assert _state["conflicts"] == 0, say(
        f"{threads} threads x {rounds} allocate/free on {blocks} blocks: {_state['conflicts']} times a block was "
        f"handed out while another thread held it ({_state['example']}): the free list is changed without the lock",
        f"{threads} 个线程各 {rounds} 次 allocate/free，共 {blocks} 块：有 {_state['conflicts']} 次一个块在别的线程"
        f"持有时又被分出去（{_state['example']}）：空闲链表在锁外被修改",
    )
    assert n == blocks, say(f"after every thread freed what it took, available() is {n}, expected {blocks}",
                            f"每个线程都释放了自己拿的块之后，available() 是 {n}，应为 {blocks}")

    def drain():
        got = sorted(pool.allocate(timeout=1.0) for _ in range(blocks))
        assert got == list(range(blocks)), say(f"allocating all {blocks} blocks again gave {got}",
                                               f"再次分配全部 {blocks} 块得到 {got}")
        _expect(TimeoutError, lambda: pool.allocate(timeout=0.05), "one more allocate after draining the pool",
                "池被取空后再 allocate 一次")

    _guarded(drain)
