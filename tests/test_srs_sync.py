"""Progress on two machines: export the review log, import another's; merging is idempotent and atomic."""

from __future__ import annotations

import json

import pytest

from srs_helpers import T0
from quiz.session.progress import Progress
from quiz.srs import sync
from quiz.srs.clock import FixedClock
from quiz.srs.integrity import problems
from quiz.srs.queue import Limits
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store


def machine(path, at=T0):
    store = Store.open(path)
    return Progress(store, FixedClock(at), FsrsScheduler(), Limits())


def rate(p: Progress, card_id: str, rating: int, hours: float = 1):
    p.clock.advance(hours=hours)
    return p.rate(p.store.card(card_id), rating)


def log_of(store: Store) -> list[tuple]:
    return sorted(
        tuple(r)
        for r in store.conn.execute(
            "SELECT card_id, rating, reviewed_at, duration_ms, state_before, state_after, interval_days, undone_at"
            " FROM review_log"
        )
    )


def states(store: Store) -> dict:
    return {k: v.to_dict() for k, v in store.cards().items()}


@pytest.fixture
def two(tmp_path):
    a, b = machine(tmp_path / "a.sqlite3"), machine(tmp_path / "b.sqlite3")
    # a common start: A studies two cards, B takes A's progress
    rate(a, "q/q1", 3), rate(a, "q/q2", 3)
    sync.export_log(a.store, tmp_path / "base.jsonl")
    sync.import_log(b.store, tmp_path / "base.jsonl", b.scheduler)
    assert states(a.store) == states(b.store)
    b.clock.at = a.clock.at
    yield a, b
    a.store.close(), b.store.close()


def test_two_diverging_stores_exchange_exports_and_end_identical(two, tmp_path):
    a, b = two
    # they diverge: each studies on its own, one shared card on both, and B takes back a rating
    rate(a, "q/q1", 3, hours=30), rate(a, "q/q3", 1), rate(a, "q/q3", 3)
    rate(b, "q/q4", 4, hours=2), rate(b, "q/q2", 2, hours=40), rate(b, "q/q5", 1)
    b.undo()
    rate(b, "q/q1", 4, hours=1)
    assert states(a.store) != states(b.store)

    sync.export_log(a.store, tmp_path / "a.jsonl")
    sync.export_log(b.store, tmp_path / "b.jsonl")
    got_a = sync.import_log(a.store, tmp_path / "b.jsonl", a.scheduler)
    got_b = sync.import_log(b.store, tmp_path / "a.jsonl", b.scheduler)
    assert (got_a.added, got_b.added) == (4, 3) and got_a.skipped == got_b.skipped == 2

    assert log_of(a.store) == log_of(b.store)
    assert states(a.store) == states(b.store)
    q1 = a.store.card("q/q1")
    assert q1.reps == 3  # A's good, B's easy after it, on top of the shared first rating
    assert "q/q5" not in a.store.cards()  # undone on B: never studied on either
    assert a.store.review_count() == b.store.review_count() == 8

    # importing again changes nothing
    before = (log_of(a.store), states(a.store))
    again = sync.import_log(a.store, tmp_path / "b.jsonl", a.scheduler)
    assert again.added == 0 and again.cards == 0
    assert (log_of(a.store), states(a.store)) == before


def test_an_undo_made_after_an_export_reaches_the_other_machine(two, tmp_path):
    a, b = two
    rate(a, "q/q3", 3, hours=5)
    sync.export_log(a.store, tmp_path / "a1.jsonl")
    sync.import_log(b.store, tmp_path / "a1.jsonl", b.scheduler)
    assert b.store.card("q/q3").reps == 1
    a.undo()
    sync.export_log(a.store, tmp_path / "a2.jsonl")
    got = sync.import_log(b.store, tmp_path / "a2.jsonl", b.scheduler)
    assert got.undone == 1 and "q/q3" not in b.store.cards()
    assert log_of(a.store) == log_of(b.store)


def test_an_import_that_fails_half_way_changes_nothing_and_a_rerun_completes(two, tmp_path, monkeypatch):
    a, b = two
    for card in ("q/q3", "q/q4", "q/q5"):
        rate(a, card, 3)
    sync.export_log(a.store, tmp_path / "a.jsonl")
    before = (log_of(b.store), states(b.store))

    real, calls = sync.replayed, []

    def failing(store, card_id, scheduler):
        calls.append(card_id)
        if len(calls) == 2:  # the first card is already written when this one fails
            raise OSError("power cut")
        return real(store, card_id, scheduler)

    monkeypatch.setattr(sync, "replayed", failing)
    with pytest.raises(OSError):
        sync.import_log(b.store, tmp_path / "a.jsonl", b.scheduler)
    assert (log_of(b.store), states(b.store)) == before
    assert problems(b.store.conn, b.store.version) == []

    monkeypatch.setattr(sync, "replayed", real)
    got = sync.import_log(b.store, tmp_path / "a.jsonl", b.scheduler)
    assert got.added == 3
    assert (log_of(a.store), states(a.store)) == (log_of(b.store), states(b.store))


@pytest.mark.parametrize(
    "line, message",
    [
        ("not json", "not JSON"),
        ('{"card_id": "q/q1"}', "missing"),
        ('{"id": "x", "card_id": "q/q1", "rating": 9, "reviewed_at": "2026-03-02T13:00:00.000000+00:00"}', "rating 9"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_imported(two, tmp_path, line, message):
    a, b = two
    rate(a, "q/q3", 3)
    sync.export_log(a.store, tmp_path / "a.jsonl")
    path = tmp_path / "a.jsonl"
    path.write_text(path.read_text() + line + "\n")
    count = b.store.review_count()
    with pytest.raises(sync.SyncFileError, match=rf"a.jsonl:5: .*{message}"):
        sync.import_log(b.store, path, b.scheduler)
    assert b.store.review_count() == count


def test_export_is_json_lines_keyed_by_review_id(two, tmp_path):
    a, _ = two
    sync.export_log(a.store, tmp_path / "a.jsonl")
    lines = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert lines[0] == {"format": "quiz-progress", "version": 1}
    assert [x["id"] for x in lines[1:]] == [f"{x['card_id']}@{x['reviewed_at']}" for x in lines[1:]]
    assert {x["card_id"] for x in lines[1:]} == {"q/q1", "q/q2"}


KILLED_MID_IMPORT = """
import os, signal, sys
from quiz.srs import sync
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

real, seen = sync.replayed, []
def dying(store, card_id, scheduler):
    seen.append(card_id)
    if len(seen) == 2:  # rows inserted and one card written, nothing committed yet
        os.kill(os.getpid(), signal.SIGKILL)
    return real(store, card_id, scheduler)
sync.replayed = dying
sync.import_log(Store.open(sys.argv[1]), sys.argv[2], FsrsScheduler())
"""


def test_an_import_killed_mid_transaction_leaves_the_store_as_it_was(two, tmp_path):
    import subprocess
    import sys

    a, b = two
    for card in ("q/q3", "q/q4", "q/q5"):
        rate(a, card, 3)
    sync.export_log(a.store, tmp_path / "a.jsonl")
    before = (log_of(b.store), states(b.store))
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_IMPORT, str(b.store.path), str(tmp_path / "a.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -9, done.stderr
    with Store.open(b.store.path) as fresh:
        assert (log_of(fresh), states(fresh)) == before
        assert problems(fresh.conn, fresh.version) == []
        assert sync.import_log(fresh, tmp_path / "a.jsonl", b.scheduler).added == 3
        assert (log_of(fresh), states(fresh)) == (log_of(a.store), states(a.store))
