"""queue_build_ms_10k and rate_ms_median on a store with 10,000 cards and 100,000 log rows."""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import median_ms

from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.clock import FixedClock, iso
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

CARDS, LOG_ROWS = 10_000, 100_000
NOW = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)


def fill(path: Path) -> list[tuple[str, str]]:
    rng = random.Random(7)
    content = [(f"q/q{i // 4}/c{i % 4}", f"m{i % 23}") for i in range(CARDS)]
    with Store.open(path) as store, store.transaction():
        for card_id, _ in content[: CARDS - 500]:  # 500 cards stay new
            due = NOW + timedelta(days=rng.uniform(-5, 60))
            s = CardState(card_id, state=REVIEW, stability=rng.uniform(1, 90), difficulty=rng.uniform(1, 10),
                          due=due, last_review=due - timedelta(days=5), reps=10)
            store._put(s)
        blob = json.dumps(CardState("x").to_dict())
        store.conn.executemany(
            "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
            " stability, difficulty, interval_days) VALUES (?, ?, ?, 4000, ?, ?, 10, 5, 3)",
            ((content[i % CARDS][0], rng.randint(1, 4), iso(NOW - timedelta(days=1, minutes=i)), blob, blob) for i in range(LOG_ROWS)),
        )
    return content


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.sqlite3"
        content = fill(path)
        clock = FixedClock(NOW)
        limits = Limits(new_per_day=20, reviews_per_day=200)

        def open_and_build() -> None:
            with Store.open(path) as store:
                q = build_queue(store, content, clock, limits)
                assert q.due and q.new

        queue_ms = median_ms(open_and_build, runs=5)
        scheduler = FsrsScheduler(fuzz=True)
        times = []
        with Store.open(path) as store:
            q = build_queue(store, content, clock, limits)
            for state in q.due[:50]:
                start = time.perf_counter()
                out = scheduler.review(state, 3, NOW)
                store.record_review(state, out.after, 3, NOW, 3000, out.interval.total_seconds() / 86400)
                times.append((time.perf_counter() - start) * 1000)
    return {"queue_build_ms_10k": queue_ms, "rate_ms_median": round(statistics.median(times), 2)}
