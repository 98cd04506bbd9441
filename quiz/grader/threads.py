"""Named worker threads for checks.py tests of thread-safe code: the grader replays each thread's own calls,
so a test that drives the learner's object from several threads is judged the same whatever the interleaving."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from quiz.grader.say import say


def run_threads(workers: dict[str, Callable[[], Any]], timeout: float = 5.0) -> dict[str, Any]:
    """Runs each worker in a thread named by its key, all released together by a barrier, and returns what
    each returned, by name. The first exception a worker raised (in key order) is raised again here; a
    worker still running after `timeout` seconds fails the test, naming the threads that are stuck."""
    names = list(workers)
    if len(set(names)) != len(names) or any(not n or n == "MainThread" for n in names):
        raise ValueError("worker names must be distinct, non-empty and not MainThread")
    barrier = threading.Barrier(len(names))
    results: dict[str, Any] = {}
    errors: dict[str, BaseException] = {}

    def body(name: str) -> None:
        try:
            barrier.wait(timeout)
            results[name] = workers[name]()
        except BaseException as exc:  # noqa: BLE001 - handed to the test's own thread below
            errors[name] = exc

    threads = [threading.Thread(target=body, args=(n,), name=n, daemon=True) for n in names]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout  # one deadline for all: stuck threads do not add up their waits
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    for name in names:
        if name in errors:
            raise errors[name]
    stuck = [t.name for t in threads if t.is_alive()]
    if stuck:
        raise AssertionError(
            say(
                f"threads {', '.join(stuck)} were still waiting after {timeout:g} s: a deadlock, or a wait that "
                "nothing wakes up",
                f"线程 {', '.join(stuck)} 在 {timeout:g} 秒后仍在等待：死锁，或者一个没有人唤醒的等待",
            )
        )
    return results
