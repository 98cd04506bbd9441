"""FSRS scheduling with a fixed clock: intervals grow, lapses count, previews match what rating does."""

from __future__ import annotations

from datetime import timedelta

from srs_helpers import T0
from quiz.srs.cardstate import LEARNING, REVIEW, CardState
from quiz.srs.clock import FixedClock, day_bounds
from quiz.srs.scheduler import FsrsScheduler, format_interval


def test_new_card_good_goes_to_learning_step():
    out = FsrsScheduler(fuzz=False).review(CardState("q/a"), 3, T0)
    assert out.after.state == LEARNING
    assert out.interval == timedelta(minutes=10)
    assert out.after.reps == 1 and out.after.last_review == T0


def test_easy_graduates_and_intervals_grow():
    s = FsrsScheduler(fuzz=False)
    now = T0
    state = s.review(CardState("q/a"), 4, now).after
    assert state.state == REVIEW
    intervals = []
    for _ in range(4):
        now = state.due
        out = s.review(state, 3, now)
        intervals.append(out.interval)
        state = out.after
    assert intervals == sorted(intervals) and intervals[-1] > timedelta(days=30)


def test_lapse_counts_and_leech_after_eight():
    s = FsrsScheduler(fuzz=False)
    state = s.review(CardState("q/a"), 4, T0).after
    now = T0
    for i in range(8):
        now = state.due
        state = s.review(state, 1, now).after  # lapse
        assert state.lapses == i + 1
        assert state.leech == (i + 1 >= 8)
        while state.state != REVIEW:
            now = state.due
            state = s.review(state, 4, now).after


def test_preview_equals_review_even_with_fuzz():
    s = FsrsScheduler(fuzz=True)
    state = s.review(CardState("q/a"), 4, T0).after
    later = state.due
    preview = s.preview(state, later)
    for rating in (1, 2, 3, 4):
        assert s.review(state, rating, later).interval == preview[rating]


def test_desired_retention_changes_intervals():
    low, high = FsrsScheduler(0.8, fuzz=False), FsrsScheduler(0.95, fuzz=False)
    first = CardState("q/a")
    a = low.review(low.review(first, 4, T0).after, 3, T0 + timedelta(days=10)).interval
    b = high.review(high.review(first, 4, T0).after, 3, T0 + timedelta(days=10)).interval
    assert a > b


def test_day_starts_at_configured_hour():
    clock = FixedClock(T0.replace(hour=3, minute=30))
    start, end = day_bounds(clock.now(), clock.tz, 4)
    assert start == T0.replace(hour=4, minute=0) - timedelta(days=1)
    assert end - start == timedelta(days=1)


def test_format_interval():
    assert [format_interval(timedelta(seconds=x)) for x in (60, 600, 7200, 86400 * 3, 86400 * 60, 86400 * 800)] == [
        "1m",
        "10m",
        "2h",
        "3d",
        "2.0mo",
        "2.2y",
    ]
