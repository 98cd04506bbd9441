"""Exact figures from the SRS parts: stats, daily backups, the clock, card states, store queries, the queue."""

from __future__ import annotations

import json
import logging
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from quiz.srs.backup import daily_backup
from quiz.srs.cardstate import LEARNING, NEW, RELEARNING, REVIEW, CardState
from quiz.srs.clock import Clock, FixedClock, day_bounds, iso
from quiz.srs.queue import Limits, Queue, build_queue, interleave
from quiz.srs.scheduler import FsrsScheduler, format_interval
from quiz.srs.stats import compute_stats
from quiz.srs.store import Store, StoreError

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)  # 12:00 UTC; the study day began at 04:00
CONTENT = [("q/a", "m1"), ("q/a/c", "m1"), ("q/b", "m1"), ("q/c", "m2"), ("q/d", "m2"), ("q/e", "m2")]


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.sqlite3") as s:
        yield s


def put(store, card_id, **kw):
    with store.transaction():
        store._put(CardState(card_id, **kw))


def log(store, card_id, rating, at, before_state=REVIEW, undone=False):
    before = json.dumps(CardState(card_id, state=before_state).to_dict())
    store.conn.execute(
        "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after, stability,"
        " difficulty, interval_days, undone_at) VALUES (?, ?, ?, 1000, ?, ?, 1, 5, 1, ?)",
        (card_id, rating, iso(at), before, before, iso(at) if undone else None),
    )


# --- stats --------------------------------------------------------------------------------------


def test_stats_count_states_modules_and_mastery(store):
    # mastered: recalled now with probability >= 0.9 (last seen 1 day ago, stability 40 days); not mastered:
    # stability 2 days, last seen 30 days ago
    put(
        store,
        "q/a",
        state=REVIEW,
        stability=40,
        difficulty=5,
        due=NOW - timedelta(days=1),
        last_review=NOW - timedelta(days=1),
        reps=5,
    )
    put(
        store,
        "q/a/c",
        state=REVIEW,
        stability=2,
        difficulty=5,
        due=NOW + timedelta(days=3),
        last_review=NOW - timedelta(days=30),
        reps=3,
    )
    put(store, "q/b", state=LEARNING, stability=1, difficulty=5, due=NOW + timedelta(hours=1), reps=1)
    put(
        store,
        "q/c",
        state=RELEARNING,
        stability=1,
        difficulty=5,
        due=NOW + timedelta(days=1, hours=17),
        reps=9,
        lapses=8,
        leech=True,
    )
    put(
        store,
        "q/d",
        state=REVIEW,
        stability=40,
        difficulty=5,
        due=NOW - timedelta(days=2),
        reps=4,
        last_review=NOW - timedelta(days=2),
        suspended=True,
    )
    put(store, "q/zzz", state=REVIEW, stability=40, difficulty=5, due=NOW, reps=4)  # not in the content
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits())
    assert stats["by_state"] == {"new": 1, "learning": 1, "review": 2, "relearning": 1, "suspended": 1, "leech": 1}
    assert stats["by_module"] == {
        "m1": {"total": 3, "seen": 3, "mastered": 1, "due": 2, "mastery": 0.333},
        "m2": {"total": 3, "seen": 2, "mastered": 1, "due": 0, "mastery": 0.333},  # suspended, still known
    }
    assert stats["cards_total"] == 6
    assert stats["due_today"] == 1 and stats["new_left_today"] == 1
    assert stats["forecast"][:4] == [2, 0, 1, 1]  # 05:00 the day after tomorrow is two study days on
    assert sum(stats["forecast"]) == 4 and len(stats["forecast"]) == 30


def test_overdue_cards_are_forecast_for_today_not_before(store):
    put(store, "q/a", state=REVIEW, stability=5, difficulty=5, due=NOW - timedelta(days=9), reps=2)
    put(store, "q/b", state=REVIEW, stability=5, difficulty=5, due=NOW + timedelta(days=29, hours=1), reps=2)
    put(store, "q/c", state=REVIEW, stability=5, difficulty=5, due=NOW + timedelta(days=40), reps=2)
    forecast = compute_stats(store, CONTENT, FixedClock(NOW), Limits(), forecast_days=30)["forecast"]
    assert forecast[0] == 1 and forecast[29] == 1 and sum(forecast) == 2


def test_retention_counts_every_passing_rating_of_review_cards_in_the_window(store):
    day = timedelta(days=1)
    log(store, "q/a", 1, NOW - day)  # again: a miss
    log(store, "q/a", 2, NOW - 2 * day)  # hard: recalled
    log(store, "q/a", 3, NOW - 3 * day)
    log(store, "q/a", 4, NOW - 29 * day)  # the window's first study day
    log(store, "q/b", 1, NOW - 30 * day)  # before the window: not counted
    log(store, "q/b", 3, NOW, before_state=NEW)  # a new card's first rating is not a recall
    log(store, "q/b", 1, NOW, undone=True)  # undone: not counted
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits(), days=30)
    assert stats["retention_reviews_30d"] == 4
    assert stats["retention_30d"] == 0.75
    assert stats["reviews_total"] == 6
    assert stats["reviewed_today"] == 1


def test_no_reviews_means_no_retention_figure(store):
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits())
    assert stats["retention_30d"] is None and stats["retention_reviews_30d"] == 0
    assert stats["by_state"]["new"] == 6
    assert stats["by_module"]["m1"] == {"total": 3, "seen": 0, "mastered": 0, "due": 0, "mastery": 0.0}


def test_reviews_per_day_and_heatmap_follow_the_study_day(store):
    log(store, "q/a", 3, NOW)  # today
    log(store, "q/a", 3, datetime(2026, 3, 10, 3, 59, tzinfo=timezone.utc))  # before 04:00: yesterday
    log(store, "q/a", 3, datetime(2026, 3, 9, 4, 0, tzinfo=timezone.utc))  # yesterday
    log(store, "q/a", 3, NOW - timedelta(days=100))  # only in the heatmap
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits(), days=3, heatmap_days=120)
    assert stats["reviews_by_day"] == [
        {"date": "2026-03-08", "count": 0},
        {"date": "2026-03-09", "count": 2},
        {"date": "2026-03-10", "count": 1},
    ]
    heat = stats["heatmap"]
    assert len(heat) == 120 and heat[-1] == 1 and heat[-2] == 2 and heat[-101] == 1 and sum(heat) == 4


def test_days_wider_than_the_heatmap_still_read_the_whole_window(store):
    log(store, "q/a", 3, NOW - timedelta(days=50))
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits(), days=60, heatmap_days=10)
    assert sum(d["count"] for d in stats["reviews_by_day"]) == 1
    assert stats["retention_reviews_30d"] == 1
    assert len(stats["heatmap"]) == 10 and sum(stats["heatmap"]) == 0


# --- daily backups ------------------------------------------------------------------------------


def test_daily_backup_once_a_day_keeping_the_newest(store, tmp_path):
    folder = tmp_path / "backups"
    first = daily_backup(store, folder, datetime(2026, 3, 1), keep=3)
    assert first == folder / "progress-2026-03-01.sqlite3" and first.is_file()
    assert daily_backup(store, folder, datetime(2026, 3, 1, 23), keep=3) is None
    for day in range(2, 7):
        daily_backup(store, folder, datetime(2026, 3, day), keep=3)
    assert sorted(p.name for p in folder.iterdir()) == [
        "progress-2026-03-04.sqlite3",
        "progress-2026-03-05.sqlite3",
        "progress-2026-03-06.sqlite3",
    ]
    with sqlite3.connect(folder / "progress-2026-03-06.sqlite3") as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == store.version


def test_daily_backup_keeps_seven_by_default_and_leaves_other_files(store, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    for day in range(1, 11):
        daily_backup(store, folder, datetime(2026, 3, day))
    kept = sorted(p.name for p in folder.glob("progress-*.sqlite3"))
    assert len(kept) == 7 and kept[0] == "progress-2026-03-04.sqlite3"
    assert (folder / "notes.txt").exists()


def test_a_failed_backup_is_logged_not_raised(store, tmp_path, caplog):
    folder = tmp_path / "backups"
    folder.parent.mkdir(exist_ok=True)
    folder.write_text("a file where the folder should be")
    with caplog.at_level(logging.WARNING, logger="quiz.srs.backup"):
        assert daily_backup(store, folder, datetime(2026, 3, 1)) is None
    assert "daily backup to" in caplog.text and "progress-2026-03-01.sqlite3 failed" in caplog.text


# --- clock and card states ----------------------------------------------------------------------


def test_day_bounds_before_and_after_the_day_start():
    utc = timezone.utc
    assert day_bounds(NOW, utc, 4) == (datetime(2026, 3, 10, 4, tzinfo=utc), datetime(2026, 3, 11, 4, tzinfo=utc))
    early = datetime(2026, 3, 10, 3, 59, tzinfo=utc)
    assert day_bounds(early, utc, 4) == (datetime(2026, 3, 9, 4, tzinfo=utc), datetime(2026, 3, 10, 4, tzinfo=utc))
    at = datetime(2026, 3, 10, 4, 0, tzinfo=utc)
    assert day_bounds(at, utc, 4)[0] == at
    plus8 = timezone(timedelta(hours=8))
    start, end = day_bounds(NOW, plus8, 4)  # 20:00 local
    assert start == datetime(2026, 3, 9, 20, tzinfo=utc) and end - start == timedelta(days=1)
    assert start.tzinfo == utc


def test_iso_is_utc_with_microseconds():
    plus8 = timezone(timedelta(hours=8))
    assert iso(datetime(2026, 1, 2, 11, 0, tzinfo=plus8)) == "2026-01-02T03:00:00.000000+00:00"
    assert iso(None) is None


def test_fixed_clock():
    with pytest.raises(ValueError, match="aware"):
        FixedClock(datetime(2026, 1, 1))
    plus8 = timezone(timedelta(hours=8))
    clock = FixedClock(datetime(2026, 1, 1, 8, tzinfo=plus8))
    assert clock.now() == datetime(2026, 1, 1, 0, tzinfo=timezone.utc) and clock.now().tzinfo == timezone.utc
    assert clock.tz == timezone.utc
    clock.advance(hours=2, minutes=5)
    assert clock.now() == datetime(2026, 1, 1, 2, 5, tzinfo=timezone.utc)
    assert FixedClock(NOW, tz=plus8).tz == plus8


def test_real_clock_is_utc_now_with_a_local_zone():
    before = datetime.now(timezone.utc)
    now = Clock().now()
    assert now.tzinfo == timezone.utc and before <= now <= datetime.now(timezone.utc)
    assert Clock().tz is not None
    plus8 = timezone(timedelta(hours=8))
    assert Clock(plus8).tz == plus8


def test_card_state_round_trips_through_a_dict():
    s = CardState(
        "q/a",
        state=REVIEW,
        step=None,
        stability=3.5,
        difficulty=6.0,
        due=NOW,
        last_review=NOW,
        reps=4,
        lapses=1,
        suspended=True,
        buried_until=NOW + timedelta(hours=3),
        leech=True,
    )
    d = s.to_dict()
    assert d["due"] == iso(NOW) and d["buried_until"] == iso(NOW + timedelta(hours=3))
    assert CardState.from_dict(d) == s
    assert CardState.from_dict(json.loads(json.dumps(d))) == s
    back = CardState.from_dict({"card_id": "x", "state": 0, "suspended": 0, "leech": 1, "due": ""})
    assert back.suspended is False and back.leech is True and back.due is None and back.is_new
    assert not s.is_new
    assert s.with_(reps=5).reps == 5 and s.reps == 4


# --- store queries ------------------------------------------------------------------------------


def test_card_of_an_unknown_id_is_new(store):
    assert store.card("q/none") == CardState("q/none")
    put(store, "q/a", state=REVIEW, stability=2, difficulty=3, due=NOW, reps=1)
    assert store.card("q/a").state == REVIEW
    assert set(store.cards()) == {"q/a"}


def test_reviews_between_and_counts(store):
    log(store, "q/a", 3, NOW - timedelta(hours=1), before_state=NEW)
    log(store, "q/b", 1, NOW - timedelta(hours=2))
    log(store, "q/c", 2, NOW - timedelta(hours=3), undone=True)
    log(store, "q/d", 4, NOW)  # at the end: excluded
    rows = store.reviews_between(NOW - timedelta(hours=5), NOW)
    assert [r["card_id"] for r in rows] == ["q/a", "q/b"]
    assert store.count_reviews_between(NOW - timedelta(hours=5), NOW) == (1, 1)
    assert store.count_reviews_between(NOW - timedelta(hours=2), NOW) == (1, 1)
    assert store.count_reviews_between(NOW + timedelta(hours=1), NOW + timedelta(hours=2)) == (0, 0)
    assert store.review_count() == 3


def test_sessions_newest_first_with_a_limit(store):
    for i in range(3):
        rid = store.record_session(NOW, NOW + timedelta(minutes=i), "quiz" if i else "mock", 5, i, {"n": i, "名": "甲"})
        assert rid == i + 1
    rows = store.sessions(limit=2)
    assert [r["id"] for r in rows] == [3, 2]
    assert rows[0]["mode"] == "quiz" and rows[0]["items"] == 5 and rows[0]["correct"] == 2
    assert rows[0]["started_at"] == iso(NOW) and rows[0]["finished_at"] == iso(NOW + timedelta(minutes=2))
    assert json.loads(rows[0]["summary"]) == {"n": 2, "名": "甲"} and "甲" in rows[0]["summary"]
    assert len(store.sessions()) == 3


def test_settings_table(store):
    assert store.get_setting("k") is None and store.get_setting("k", "d") == "d"
    store.set_setting("k", "v1")
    store.set_setting("k", "v2")
    assert store.get_setting("k", "d") == "v2"


def test_store_creates_missing_folders_and_refuses_a_folder(tmp_path):
    with Store.open(tmp_path / "a" / "b" / "p.sqlite3") as s:
        assert s.version >= 1
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert s.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    with Store.open(tmp_path / "q.sqlite3", busy_timeout_ms=250) as s:
        assert s.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 250
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StoreError, match="is not a file"):
        Store.open(tmp_path / "dir.sqlite3")


def test_a_failed_transaction_rolls_back(store):
    with pytest.raises(RuntimeError):
        with store.transaction():
            store._put(CardState("q/a", state=REVIEW, stability=1, difficulty=1, due=NOW))
            raise RuntimeError("boom")
    assert store.cards() == {}
    assert not store.conn.in_transaction


def test_exercise_status_passed_wins_over_failures(store):
    store.record_attempt("e1", NOW, "fail", 0, 2, 10)
    store.record_attempt("e1", NOW, "pass", 2, 2, 12)
    store.record_attempt("e2", NOW, "error", 0, 1, 3)
    assert store.exercise_status() == {"e1": "passed", "e2": "failing"}
    row = store.conn.execute("SELECT * FROM exercise_attempts WHERE status = 'pass'").fetchone()
    assert (row["passed"], row["total"], row["duration_ms"], row["attempted_at"]) == (2, 2, 12, iso(NOW))


# --- queue --------------------------------------------------------------------------------------


def test_interleave_round_robins_modules():
    items = [("a1", "A"), ("a2", "A"), ("a3", "A"), ("b1", "B"), ("c1", "C"), ("c2", "C")]
    assert [c for c, _ in interleave(items)] == ["a1", "b1", "c1", "a2", "c2", "a3"]
    assert interleave([]) == []


def test_queue_limits_subtract_what_was_done_today(store):
    for card_id, _ in CONTENT[:4]:
        put(store, card_id, state=REVIEW, stability=5, difficulty=5, due=NOW - timedelta(hours=1), reps=2)
    log(store, "q/x", 3, NOW - timedelta(hours=1))
    log(store, "q/y", 3, NOW - timedelta(hours=2), before_state=NEW)
    q = build_queue(store, CONTENT, FixedClock(NOW), Limits(new_per_day=2, reviews_per_day=3))
    assert q.due_total == 4 and len(q.due) == 2  # three a day, one done
    assert q.new == ["q/d"]  # two a day, one done
    assert (q.new_done_today, q.reviews_done_today) == (1, 1)
    assert len(q) == 3
    assert q.day_start == datetime(2026, 3, 10, 4, tzinfo=timezone.utc)
    assert q.day_end == datetime(2026, 3, 11, 4, tzinfo=timezone.utc)


def test_queue_never_goes_negative_past_the_limits(store):
    for i in range(3):
        log(store, f"q/n{i}", 3, NOW - timedelta(minutes=i + 1), before_state=NEW)
        log(store, f"q/r{i}", 3, NOW - timedelta(minutes=i + 1))
    put(store, "q/a", state=REVIEW, stability=5, difficulty=5, due=NOW - timedelta(hours=1), reps=2)
    q = build_queue(store, CONTENT, FixedClock(NOW), Limits(new_per_day=2, reviews_per_day=2))
    assert q.new == [] and q.due == [] and q.due_total == 1


def test_queue_takes_review_cards_due_today_and_learning_cards_once_due(store):
    put(store, "q/a", state=LEARNING, stability=1, difficulty=5, due=NOW + timedelta(hours=3), reps=1)
    put(store, "q/b", state=REVIEW, stability=5, difficulty=5, due=NOW + timedelta(hours=3), reps=2)
    put(store, "q/c", state=LEARNING, stability=1, difficulty=5, due=NOW + timedelta(hours=17), reps=1)
    put(store, "q/d", state=REVIEW, stability=5, difficulty=5, due=NOW - timedelta(days=2), reps=2)
    q = build_queue(store, CONTENT, FixedClock(NOW), Limits())
    assert [s.card_id for s in q.due] == ["q/d", "q/b"]
    assert q.due_total == 2


def test_queue_default_limits():
    assert (Limits().new_per_day, Limits().reviews_per_day, Limits().day_start_hour) == (20, 200, 4)
    assert len(Queue()) == 0


# --- scheduler ----------------------------------------------------------------------------------


def test_bad_rating_is_refused():
    with pytest.raises(ValueError, match="rating must be 1-4, got 5"):
        FsrsScheduler().review(CardState("q/a"), 5, NOW)


def test_review_resets_bury_and_counts_reps():
    s = CardState("q/a", buried_until=NOW + timedelta(hours=5))
    out = FsrsScheduler(fuzz=False).review(s, 3, NOW)
    assert out.after.buried_until is None and out.after.reps == 1 and out.after.last_review == NOW
    assert out.after.state == LEARNING and out.interval == out.after.due - NOW
    assert out.after.stability > 0 and out.after.difficulty > 0


def test_a_lapse_on_a_learning_card_is_not_counted():
    s = CardState("q/a", state=LEARNING, step=0, stability=1.0, difficulty=5.0, due=NOW, last_review=NOW)
    out = FsrsScheduler(fuzz=False).review(s, 1, NOW + timedelta(minutes=5))
    assert out.after.lapses == 0 and not out.after.leech


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(seconds=-5), "1m"),
        (timedelta(seconds=20), "1m"),
        (timedelta(seconds=90), "2m"),
        (timedelta(minutes=59, seconds=59), "60m"),
        (timedelta(hours=1), "1h"),
        (timedelta(hours=23, minutes=59), "24h"),
        (timedelta(days=1), "1d"),
        (timedelta(days=29, hours=23), "30d"),
        (timedelta(days=30), "1.0mo"),
        (timedelta(days=364), "12.1mo"),
        (timedelta(days=365), "1.0y"),
        (timedelta(days=900), "2.5y"),
    ],
)
def test_format_interval_edges(delta, text):
    assert format_interval(delta) == text


def test_stats_defaults_and_counts_that_add_up(store):
    for card_id in ("q/a", "q/b"):
        put(
            store,
            card_id,
            state=REVIEW,
            stability=5,
            difficulty=5,
            due=NOW + timedelta(days=2),
            reps=9,
            lapses=8,
            leech=True,
            suspended=True,
        )
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits())
    assert stats["by_state"] == {"new": 4, "learning": 0, "review": 0, "relearning": 0, "suspended": 2, "leech": 2}
    assert len(stats["reviews_by_day"]) == 30 and len(stats["heatmap"]) == 182 and len(stats["forecast"]) == 30
    assert sum(stats["forecast"]) == 0  # suspended cards are not forecast


def test_stats_follow_the_clock_zone(store):
    plus8 = timezone(timedelta(hours=8))
    # 21:00 UTC on the 9th is 05:00 on the 10th at +8: past that zone's 04:00 day start
    log(store, "q/a", 3, datetime(2026, 3, 9, 21, tzinfo=timezone.utc))
    put(
        store,
        "q/b",
        state=REVIEW,
        stability=5,
        difficulty=5,
        due=datetime(2026, 3, 10, 21, tzinfo=timezone.utc),
        reps=2,
    )
    stats = compute_stats(store, CONTENT, FixedClock(NOW, tz=plus8), Limits(), days=2)
    assert stats["reviews_by_day"] == [{"date": "2026-03-09", "count": 0}, {"date": "2026-03-10", "count": 1}]
    assert stats["forecast"][:2] == [0, 1]  # 05:00 on the 11th at +8
    assert stats["reviewed_today"] == 1


def test_retention_window_starts_at_the_first_study_day_and_rounds_to_four_places(store):
    window_start = datetime(2026, 2, 9, 4, tzinfo=timezone.utc)  # 30 study days back from the 10th
    log(store, "q/a", 3, window_start)
    log(store, "q/a", 1, window_start + timedelta(days=1))
    log(store, "q/a", 1, window_start + timedelta(days=2))
    log(store, "q/a", 4, window_start - timedelta(microseconds=1))  # just before: left out
    stats = compute_stats(store, CONTENT, FixedClock(NOW), Limits())
    assert stats["retention_reviews_30d"] == 3 and stats["retention_30d"] == 0.3333


def test_the_logged_states_are_what_undo_restores(store):
    before = CardState("q/a", state=REVIEW, stability=2, difficulty=3, due=NOW, last_review=NOW, reps=1)
    after = before.with_(stability=9, reps=2)
    with store.transaction():
        store._put(before)
    log_id = store.record_review(before, after, 3, NOW, 1200, 4.5)
    assert log_id == 1
    row = store.conn.execute("SELECT * FROM review_log").fetchone()
    assert CardState.from_dict(json.loads(row["state_after"])) == after
    assert CardState.from_dict(json.loads(row["state_before"])) == before
    assert (row["stability"], row["difficulty"], row["interval_days"], row["duration_ms"]) == (9, 3, 4.5, 1200)
    assert store.card("q/a") == after
    later = NOW + timedelta(minutes=1)
    assert store.undo_review(log_id, later) == before and store.card("q/a") == before
    undone = store.conn.execute("SELECT undone_at FROM review_log WHERE id = ?", (log_id,)).fetchone()
    assert undone["undone_at"] == iso(later)  # the row is kept, marked undone
    assert store.undo_review(log_id, later) is None and store.undo_review(99, later) is None


def test_a_review_card_is_scheduled_from_its_last_review():
    s = CardState(
        "q/a", state=REVIEW, stability=10.0, difficulty=5.0, due=NOW, reps=3, last_review=NOW - timedelta(days=10)
    )
    fresh = FsrsScheduler(fuzz=False).review(s, 3, NOW)
    long_ago = FsrsScheduler(fuzz=False).review(s.with_(last_review=NOW - timedelta(days=40)), 3, NOW)
    assert fresh.after.stability != long_ago.after.stability
    assert fresh.after.state == REVIEW and fresh.after.step is None
