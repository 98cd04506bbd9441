"""Progress figures: due today, reviews per day, true retention, states, per-module mastery, forecast."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from quiz.srs.cardstate import NEW, REVIEW, STATE_NAMES
from quiz.srs.clock import Clock, day_bounds
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import retrievability
from quiz.srs.store import Store

MASTERED_RETRIEVABILITY = 0.9  # a review card recalled now with at least this probability counts as mastered


def compute_stats(
    store: Store,
    content: list[tuple[str, str]],
    clock: Clock,
    limits: Limits,
    days: int = 30,
    forecast_days: int = 30,
    heatmap_days: int = 182,
    mastered_at: float = MASTERED_RETRIEVABILITY,
) -> dict:
    now = clock.now()
    tz = clock.tz
    queue = build_queue(store, content, clock, limits)
    today_start, _ = day_bounds(now, tz, limits.day_start_hour)
    module_of = dict(content)
    states = store.cards()

    by_state: Counter = Counter()
    by_module: dict[str, dict] = {}
    for card_id, module in content:
        m = by_module.setdefault(module, {"total": 0, "seen": 0, "mastered": 0, "due": 0})
        m["total"] += 1
        s = states.get(card_id)
        if s is not None and s.suspended:
            by_state["suspended"] += 1
        if s is None or s.state == NEW:
            if s is None or not s.suspended:
                by_state["new"] += 1
            continue
        m["seen"] += 1
        if not s.suspended:
            by_state[STATE_NAMES[s.state]] += 1
        if s.leech:
            by_state["leech"] += 1
        if s.state == REVIEW and retrievability(s, now) >= mastered_at:
            m["mastered"] += 1
        if not s.suspended and s.due and s.due < today_start + timedelta(days=1):
            m["due"] += 1
    for m in by_module.values():
        m["mastery"] = round(m["mastered"] / m["total"], 3) if m["total"] else 0.0

    since = today_start - timedelta(days=max(days, heatmap_days) - 1)
    rows = store.review_summaries_since(since)
    per_day: Counter = Counter()
    recall = [0, 0]
    window = today_start - timedelta(days=days - 1)
    for r in rows:
        when = _parse(r["reviewed_at"])
        per_day[_study_date(when, tz, limits.day_start_hour)] += 1
        if when >= window and r["before"] == REVIEW:
            recall[1] += 1
            recall[0] += r["rating"] > 1
    today = _study_date(now, tz, limits.day_start_hour)
    dates = [(today - timedelta(days=i)) for i in range(days - 1, -1, -1)]
    heat = [(today - timedelta(days=i)) for i in range(heatmap_days - 1, -1, -1)]

    forecast: Counter = Counter()
    for s in states.values():
        if s.card_id in module_of and not s.suspended and s.due and s.state != NEW:
            offset = (_study_date(s.due, tz, limits.day_start_hour) - today).days
            forecast[max(offset, 0)] += 1
    return {
        "due_today": queue.due_total,
        "new_left_today": len(queue.new),
        "reviewed_today": queue.reviews_done_today + queue.new_done_today,
        "reviews_total": store.review_count(),
        "reviews_by_day": [{"date": d.isoformat(), "count": per_day.get(d, 0)} for d in dates],
        "retention_30d": round(recall[0] / recall[1], 4) if recall[1] else None,
        "retention_reviews_30d": recall[1],
        "by_state": {k: by_state.get(k, 0) for k in ("new", "learning", "review", "relearning", "suspended", "leech")},
        "by_module": by_module,
        "forecast": [forecast.get(i, 0) for i in range(forecast_days)],
        "heatmap": [per_day.get(d, 0) for d in heat],
        "cards_total": len(content),
    }


def _parse(text: str):
    from datetime import datetime

    return datetime.fromisoformat(text)


def _study_date(when, tz, day_start_hour: int):
    return (when.astimezone(tz) - timedelta(hours=day_start_hour)).date()
