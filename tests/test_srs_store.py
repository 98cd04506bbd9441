"""The progress store: queue, undo, suspend/bury, hidden cards, migrations, bad files."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest

from srs_helpers import T0, clock, small_bank
from quiz.session.cards import content_cards
from quiz.session.review import ReviewSession
from quiz.srs.migrations import LATEST, MIGRATIONS
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store, StoreError


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.sqlite3") as s:
        yield s


def session(store, limits=None, **kw):
    return ReviewSession(
        store, small_bank(), kw.pop("clk", None) or clock(), FsrsScheduler(fuzz=False), limits or Limits(), **kw
    )


def test_new_cards_come_in_syllabus_order_within_the_limit(store):
    s = session(store, Limits(new_per_day=5))
    assert s.queue.new == ["q/q1", "q/q1/c", "q/q2", "q/q2/c", "q/q3"]
    assert s.queue.due == []


def test_interleaved_order_alternates_modules(store):
    s = session(store, Limits(new_per_day=4), interleaved=True)
    assert s.queue.new == ["q/q1", "q/q4", "q/q1/c", "q/q4/c"]


def test_rating_is_committed_and_limits_count_today(store, tmp_path):
    s = session(store, Limits(new_per_day=3))
    state, view = s.next_card()
    assert view.front == "Question 1"
    s.rate(state, 3, 1500)
    with Store.open(tmp_path / "p.sqlite3") as other:  # another connection sees it at once
        assert other.card("q/q1").reps == 1
        row = other.conn.execute("SELECT * FROM review_log").fetchone()
        assert row["rating"] == 3 and row["duration_ms"] == 1500 and row["interval_days"] > 0
    assert len(s.queue.new) == 2  # one of today's three new cards is used


def test_undo_restores_the_card_exactly(store):
    s = session(store)
    state, _ = s.next_card()
    s.rate(state, 4)
    reviewed = store.card("q/q1")
    s.clock.advance(days=10)
    s.rate(reviewed, 3)
    assert store.card("q/q1") != reviewed
    s.undo()
    assert store.card("q/q1") == reviewed
    s.undo()
    assert store.card("q/q1").is_new
    assert store.conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0
    assert store.conn.execute("SELECT count(*) FROM review_log WHERE undone_at IS NOT NULL").fetchone()[0] == 2
    assert s.undo() is None


def test_due_cards_come_before_new_ones(store):
    s = session(store)
    first, _ = s.next_card()
    s.rate(first, 4)
    s.clock.advance(days=30)
    s.refresh()
    state, view = s.next_card()
    assert state.card_id == "q/q1" and not state.is_new


def test_suspend_and_bury(store):
    s = session(store)
    state, _ = s.next_card()
    s.suspend(state)
    assert "q/q1" not in s.queue.new and s.next_card()[0].card_id == "q/q1/c"
    second, _ = s.next_card()
    s.rate(second, 1)
    s.clock.advance(minutes=5)
    s.refresh()
    learning = store.card("q/q1/c")
    s.bury(learning)
    assert all(c.card_id != "q/q1/c" for c in s.queue.due)
    s.clock.advance(days=1)
    s.refresh()
    assert any(c.card_id == "q/q1/c" for c in s.queue.due)


def test_cards_of_removed_content_are_hidden_and_return(store):
    bank = small_bank()
    clk = clock()
    limits = Limits()
    s = ReviewSession(store, bank, clk, FsrsScheduler(fuzz=False), limits)
    state, _ = s.next_card()
    s.rate(state, 4)
    clk.advance(days=60)
    full = content_cards(bank)
    without = [c for c in full if not c[0].startswith("q/q1")]
    assert "q/q1" not in [c.card_id for c in build_queue(store, without, clk, limits).due]
    assert store.card("q/q1").reps == 1  # history kept
    assert "q/q1" in [c.card_id for c in build_queue(store, full, clk, limits).due]


def test_migration_from_the_first_schema_version(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    conn.execute(
        "INSERT INTO cards (card_id, state, due, reps) VALUES ('q/old', 2, '2026-01-01T00:00:00.000000+00:00', 3)"
    )
    conn.execute(
        "INSERT INTO review_log (card_id, rating, reviewed_at, state_before, state_after) VALUES ('q/old', 3, '2026-01-01T00:00:00.000000+00:00', '{}', '{}')"
    )
    conn.commit()
    conn.close()
    with Store.open(path) as s:
        assert s.version == LATEST
        old = s.card("q/old")
        assert old.reps == 3 and old.leech is False
        assert s.conn.execute("SELECT count(*) FROM review_log").fetchone()[0] == 1
        assert s.conn.execute("SELECT count(*) FROM settings").fetchone()[0] == 0


def test_file_that_is_not_sqlite_is_reported_and_untouched(tmp_path):
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"this is my shopping list, not a database\n" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert str(path) in str(err.value) and "untouched" in str(err.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.sqlite3"]


def test_corrupt_database_is_reported_and_untouched(tmp_path):
    path = tmp_path / "p.sqlite3"
    with Store.open(path):
        pass
    data = bytearray(path.read_bytes())
    data[0:16] = b"garbage garbage!"
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        Store.open(path)
    assert path.read_bytes()[0:16] == b"garbage garbage!"


def test_newer_schema_is_refused_without_change(tmp_path):
    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 5}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer than this app"):
        Store.open(path)
    assert path.read_bytes() == before


def test_backup_is_a_readable_copy(store, tmp_path):
    s = session(store)
    state, _ = s.next_card()
    s.rate(state, 3)
    dest = store.backup(tmp_path / "b" / "copy.sqlite3")
    with Store.open(dest) as copy:
        assert copy.card("q/q1").reps == 1


def test_attempts_and_status(store):
    store.record_attempt("ex-a", T0, "fail", 1, 3, 40)
    store.record_attempt("ex-b", T0, "fail", 0, 3, 40)
    store.record_attempt("ex-a", T0 + timedelta(minutes=1), "pass", 3, 3, 41)
    assert store.exercise_status() == {"ex-a": "passed", "ex-b": "failing"}
