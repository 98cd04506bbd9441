"""A pinned interval trajectory for a fixed rating sequence, and rescheduling when desired retention changes."""

from __future__ import annotations

from datetime import timedelta

from srs_helpers import T0
from quiz.srs.cardstate import LEARNING, RELEARNING, REVIEW, CardState
from quiz.srs.reschedule import replay, reschedule_all
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

RATINGS = (3, 3, 3, 3, 1, 3, 3, 4, 2, 3)
# (state after, interval in days) for RATINGS, each given when the card is due, at retention 0.9, no fuzz
EXPECTED = [
    (LEARNING, 0.0069),
    (REVIEW, 2.0),
    (REVIEW, 11.0),
    (REVIEW, 46.0),
    (RELEARNING, 0.0069),
    (REVIEW, 3.0),
    (REVIEW, 8.0),
    (REVIEW, 28.0),
    (REVIEW, 52.0),
    (REVIEW, 101.0),
]


def trajectory(scheduler: FsrsScheduler) -> list[tuple[int, float]]:
    state, now, out = CardState("q/a"), T0, []
    for rating in RATINGS:
        outcome = scheduler.review(state, rating, now)
        state, now = outcome.after, outcome.after.due
        out.append((state.state, round(outcome.interval.total_seconds() / 86400, 4)))
    return out


def test_interval_trajectory_is_pinned():
    assert trajectory(FsrsScheduler(0.9, fuzz=False)) == EXPECTED


def rate_in_store(store: Store, scheduler: FsrsScheduler, card_id: str, ratings) -> CardState:
    state, now = store.card(card_id), T0
    for rating in ratings:
        out = scheduler.review(state, rating, now)
        store.record_review(state, out.after, rating, now, None, out.interval.total_seconds() / 86400)
        state, now = out.after, out.after.due
    return state


def test_changing_retention_reschedules_existing_cards(tmp_path):
    old, new = FsrsScheduler(0.9, fuzz=False), FsrsScheduler(0.8, fuzz=False)
    with Store.open(tmp_path / "p.sqlite3") as store:
        rate_in_store(store, old, "q/a", (3, 3, 3))
        rate_in_store(store, old, "q/b", (4, 3))
        store.set_flags("q/b", suspended=True)
        before = store.card("q/a")
        assert reschedule_all(store, new) == 2
        after = store.card("q/a")
        assert after.due > before.due  # lower retention: longer intervals
        rows = store.rating_history()["q/a"]
        assert after == replay("q/a", [(r, at) for r, at, _ in rows], new)
        assert store.card("q/b").suspended
        assert reschedule_all(store, new) == 0  # nothing left to change


def test_rescheduling_a_forgotten_card_replays_only_its_new_life(tmp_path):
    sched = FsrsScheduler(0.9, fuzz=False)
    with Store.open(tmp_path / "p.sqlite3") as store:
        rate_in_store(store, sched, "q/a", (4, 3, 3))
        store.restore(CardState("q/a"))  # forgotten
        again = rate_in_store(store, sched, "q/a", (3,))
        assert again.state == LEARNING
        reschedule_all(store, FsrsScheduler(0.8, fuzz=False))
        assert store.card("q/a").state == LEARNING and store.card("q/a").reps == 1
        assert store.card("q/a").due - T0 == timedelta(minutes=10)
