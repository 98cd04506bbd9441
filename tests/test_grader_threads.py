"""Thread-safe code is graded from several named threads: each thread's calls are replayed in its own order,
so a right answer passes whatever the interleaving, a lost update fails, and a deadlock is named as one."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from grader_helpers import grade_source, load_exercise
from quiz.grader import wire
from quiz.grader.kinds.function import Replay, Replays
from quiz.grader.runner import GraderWorker
from quiz.grader.threads import run_threads

COUNTER = Path(__file__).parent / "fixtures" / "threaded" / "counter"
GOOD = (COUNTER / "solution.py").read_text(encoding="utf-8")
RACY = GOOD.replace(
    "        with self._lock:\n            self._total += k\n            return self._total",
    "        import time\n        seen = self._total\n        time.sleep(0.001)\n        self._total = seen + k\n"
    "        return self._total",
)
DEADLOCK = GOOD.replace(
    "            self._total += k\n", "            self._total += k\n            self._lock.acquire()\n"
)


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def grade(worker, tmp_path, source):
    return grade_source(worker, tmp_path, source, load_exercise(COUNTER), COUNTER)


def test_a_thread_safe_answer_passes_whatever_the_interleaving(worker, tmp_path):
    for _ in range(3):
        result = grade(worker, tmp_path, GOOD)
        assert result.status == "pass", result


def test_a_lost_update_fails_and_says_so(worker, tmp_path):
    assert RACY != GOOD
    result = grade(worker, tmp_path, RACY)
    assert result.status == "fail"
    assert "lost update" in str(result)


def test_a_deadlock_is_named_as_one(worker, tmp_path):
    assert DEADLOCK != GOOD
    result = grade(worker, tmp_path, DEADLOCK)
    assert result.status == "fail"
    assert "never returned" in str(result)


def _record(thread, attr, result, target=1):
    return {
        "target": target,
        "attr": attr,
        "op": "call",
        "events": [],
        "result": result,
        "raised": None,
        "post": [wire.encode(1)] if attr == "add" else [],
        "thread": thread,
    }


def test_replays_hand_each_thread_its_own_records_in_order():
    records = [
        {
            "target": 0,
            "attr": None,
            "op": "call",
            "events": [],
            "result": {"__handle__": 1},
            "raised": None,
            "post": [],
            "thread": "MainThread",
        },
        _record("b", "add", 1),
        _record("a", "add", 2),
        _record("b", "add", 3),
    ]
    records[1]["post"] = records[2]["post"] = records[3]["post"] = [None]
    replays = Replays(records)
    counter = Replay(replays)()
    got = run_threads({"a": lambda: [counter.add(1)], "b": lambda: [counter.add(1), counter.add(1)]})
    assert got == {"a": [2], "b": [1, 3]}


@pytest.mark.parametrize("bad", [{"thread": 3}, {"thread": None}, {}])
def test_a_record_without_a_thread_name_is_unreadable(bad):
    record = {"target": 0, "attr": None, "op": "call", "events": [], "result": 1, "raised": None, "post": []}
    record.pop("thread", None)
    record.update(bad)
    with pytest.raises(wire.WireError):
        Replays([record])


def test_run_threads_raises_what_a_worker_raised_and_names_stuck_ones():
    def boom():
        raise KeyError("x")

    with pytest.raises(KeyError):
        run_threads({"ok": lambda: 1, "bad": boom})
    never = threading.Event()
    with pytest.raises(AssertionError, match="stuck"):
        run_threads({"stuck": lambda: never.wait(5)}, timeout=0.2)
    with pytest.raises(ValueError):
        run_threads({"MainThread": lambda: 1})


def test_run_threads_waits_one_timeout_in_all_not_one_per_stuck_thread():
    never = threading.Event()
    start = time.monotonic()
    with pytest.raises(AssertionError, match="s0, s1, s2, s3"):
        run_threads({f"s{i}": lambda: never.wait(10) for i in range(4)}, timeout=0.5)
    assert time.monotonic() - start < 1.5  # four serial waits of 0.5 s would take 2 s or more


GATHER = Path(__file__).parent / "fixtures" / "threaded" / "gather"
BOUNDED = (GATHER / "solution.py").read_text(encoding="utf-8")


def grade_async(worker, tmp_path, source):
    return grade_source(worker, tmp_path, source, load_exercise(GATHER), GATHER)


def test_an_async_entry_is_awaited_and_judged(worker, tmp_path):
    assert grade_async(worker, tmp_path, BOUNDED).status == "pass"
    unbounded = BOUNDED.replace("asyncio.Semaphore(limit)", "asyncio.Semaphore(100)")
    result = grade_async(worker, tmp_path, unbounded)
    assert result.status == "fail" and "limit is 3" in str(result)
    wrong = BOUNDED.replace("return await fn(x)", "return await fn(x) + 1")
    assert grade_async(worker, tmp_path, wrong).status == "fail"


def test_an_async_entry_that_never_finishes_is_named(worker, tmp_path):
    hangs = BOUNDED.replace("asyncio.Semaphore(limit)", "asyncio.Semaphore(0)")
    result = grade_async(worker, tmp_path, hangs)
    assert result.status == "fail"
    assert "never returned" in str(result)


def test_a_test_that_catches_exception_cannot_swallow_a_hang():
    from quiz.grader.kinds.function import Exhausted, Hung

    record = {
        "target": 0,
        "attr": None,
        "op": "call",
        "events": [],
        "result": None,
        "raised": None,
        "thread": "MainThread",
    }
    replay = Replay(Replays([record]))
    with pytest.raises(Hung):
        try:
            replay()
        except Exception:  # noqa: BLE001 - what a checks.py test might write around a learner call
            pass
    with pytest.raises(Exhausted):
        try:
            Replay(Replays([]))()
        except Exception:  # noqa: BLE001
            pass
