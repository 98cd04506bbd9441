"""Stats breakdowns (intervals, answer buttons, weekly retention) and the charts that draw them."""

from __future__ import annotations

import re
from datetime import date, timedelta

from srs_helpers import T0, clock

from quiz.srs.breakdown import interval_breakdown, rating_breakdown, weekly_retention
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store
from quiz.tui.widgets.charts import dated_columns, heatmap, labelled_bars


def plain(markup: str) -> str:
    return re.sub(r"\[/?[a-z ]*\]", "", markup)


def review(store, scheduler, card_id, rating, when):
    state = store.card(card_id)
    out = scheduler.review(state, rating, when)
    store.record_review(state, out.after, rating, when, 1000, out.interval.total_seconds() / 86400)


def test_breakdowns_count_what_was_logged(tmp_path):
    scheduler = FsrsScheduler(fuzz=False)
    with Store.open(tmp_path / "p.sqlite3") as store:
        day = timedelta(days=1)
        review(store, scheduler, "q/a", 3, T0 - 40 * day)  # new -> learning
        review(store, scheduler, "q/a", 3, T0 - 35 * day)  # learning -> review
        review(store, scheduler, "q/a", 3, T0 - 20 * day)  # a review that passed, 3 weeks ago
        review(store, scheduler, "q/a", 1, T0 - 2 * day)  # a review that lapsed, this week
        review(store, scheduler, "q/b", 4, T0 - 1 * day)
        assert rating_breakdown(store, T0 - 30 * day) == {1: 1, 2: 0, 3: 1, 4: 1}
        buckets = dict(interval_breakdown(store, {"q/a", "q/b", "q/unknown"}))
        assert sum(buckets.values()) == 2
        assert interval_breakdown(store, {"q/none"}) == [(label, 0) for label, _ in interval_breakdown(store, set())]
        weekly = weekly_retention(store, clock(), weeks=12)
        assert len(weekly) == 12 and weekly[-1] == 0.0 and weekly[-3] == 1.0
        assert weekly.count(None) == 10


def test_heatmap_rows_are_weekdays_and_months_label_columns():
    today = date(2026, 3, 2)  # a Monday
    counts = [0] * 181 + [5]
    lines = plain(
        heatmap(
            counts,
            today,
            ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
            ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        )
    ).split("\n")
    assert len(lines) == 8 and "Feb" in lines[0] and "Sep" in lines[0]
    monday = lines[1]
    assert monday.startswith("Mon") and monday.rstrip()[-1] != "·"  # today (a Monday) holds the one review
    assert lines[2].endswith("· ")  # Tuesday of this week is still to come: blank


def test_dated_columns_label_the_axis_with_dates_and_the_peak():
    first = date(2026, 2, 1)
    text = plain(dated_columns([0, 1, 2, 8] + [0] * 26, first))
    lines = text.split("\n")
    assert lines[0].startswith("8┤")
    assert "02-01" in lines[-1] and "03-02" in lines[-1] and "02-16" in lines[-1]


def test_labelled_bars_show_count_and_share():
    text = plain(labelled_bars([("again", 1), ("good", 3)]))
    assert "again" in text and "25%" in text and "75%" in text
