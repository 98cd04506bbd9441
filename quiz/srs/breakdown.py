"""Stats breakdowns: current intervals, answer buttons, and true retention week by week."""

from __future__ import annotations

from datetime import datetime, timedelta

from quiz.srs.cardstate import NEW, REVIEW
from quiz.srs.clock import Clock, day_bounds, iso
from quiz.srs.store import Store

# (upper bound in days, label key): a card's interval falls in the first bucket whose bound exceeds it
INTERVAL_BUCKETS = [
    (1, "<1d"),
    (4, "1-3d"),
    (8, "4-7d"),
    (15, "1-2w"),
    (31, "2-4w"),
    (91, "1-3m"),
    (float("inf"), ">3m"),
]


def interval_breakdown(store: Store, card_ids: set[str]) -> list[tuple[str, int]]:
    """How many studied cards have each current interval (due minus last review)."""
    counts = [0] * len(INTERVAL_BUCKETS)
    for s in store.cards().values():
        if s.card_id not in card_ids or s.state == NEW or s.suspended or not s.due or not s.last_review:
            continue
        days = (s.due - s.last_review).total_seconds() / 86400
        counts[next(i for i, (bound, _) in enumerate(INTERVAL_BUCKETS) if days < bound)] += 1
    return [(label, n) for (_, label), n in zip(INTERVAL_BUCKETS, counts)]


def rating_breakdown(store: Store, since: datetime) -> dict[int, int]:
    """Answer buttons pressed (1 again .. 4 easy) since `since`, undone reviews left out."""
    rows = store.conn.execute(
        "SELECT rating, COUNT(*) AS n FROM review_log WHERE undone_at IS NULL AND reviewed_at >= ? GROUP BY rating",
        (iso(since),),
    ).fetchall()
    found = {r["rating"]: r["n"] for r in rows}
    return {r: found.get(r, 0) for r in (1, 2, 3, 4)}


def weekly_retention(store: Store, clock: Clock, day_start_hour: int = 4, weeks: int = 12) -> list[float | None]:
    """True retention (passed / reviews of cards in review state) per 7-day window, oldest first; None when empty."""
    _, day_end = day_bounds(clock.now(), clock.tz, day_start_hour)
    start = day_end - timedelta(days=7 * weeks)
    rows = store.conn.execute(
        "SELECT rating, reviewed_at, json_extract(state_before, '$.state') AS before FROM review_log"
        " WHERE undone_at IS NULL AND reviewed_at >= ?",
        (iso(start),),
    ).fetchall()
    passed, total = [0] * weeks, [0] * weeks
    for r in rows:
        if r["before"] != REVIEW:
            continue
        week = int((datetime.fromisoformat(r["reviewed_at"]) - start).total_seconds() // (7 * 86400))
        if 0 <= week < weeks:
            total[week] += 1
            passed[week] += r["rating"] > 1
    return [round(p / t, 4) if t else None for p, t in zip(passed, total)]


def later_today(store: Store, card_ids: set[str], clock: Clock, day_start_hour: int = 4) -> int:
    """Learning cards not due yet but due before the study day ends (they come back in minutes)."""
    now = clock.now()
    _, end = day_bounds(now, clock.tz, day_start_hour)
    return sum(
        1
        for s in store.cards().values()
        if s.card_id in card_ids and not s.suspended and s.due and now < s.due < end and s.state in (1, 3)
    )
