"""queue_build_ms_10k and rate_ms_median on a store with 10,000 cards and 100,000 log rows, today's included."""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bench_content import build_bank
from common import median_ms

from quiz.content.loader import load_bank
from quiz.session.cards import content_cards
from quiz.session.review import ReviewSession
from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.clock import FixedClock, iso
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

CARDS, LOG_ROWS, TODAY_ROWS = 10_000, 100_000, 150
NOW = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)
LIMITS = Limits(new_per_day=20, reviews_per_day=200)


def fill(path: Path, content: list[tuple[str, str]]) -> None:
    """Review states for all but 500 cards; log rows over 100 days, the last TODAY_ROWS of them this morning."""
    rng = random.Random(7)
    with Store.open(path) as store, store.transaction():
        for card_id, _ in content[: CARDS - 500]:  # 500 cards stay new
            due = NOW + timedelta(days=rng.uniform(-5, 60))
            s = CardState(card_id, state=REVIEW, stability=rng.uniform(1, 90), difficulty=rng.uniform(1, 10),
                          due=due, last_review=due - timedelta(days=5), reps=10)
            store._put(s)
        new_blob = json.dumps(CardState("x").to_dict())
        review_blob = json.dumps(CardState("x", state=REVIEW, stability=10, difficulty=5, due=NOW).to_dict())

        def when(i: int) -> datetime:
            if i < TODAY_ROWS:
                return NOW - timedelta(minutes=i + 1)  # today's study day began at 04:00
            return NOW - timedelta(days=1, seconds=(i * 86_400 * 100) // LOG_ROWS)

        store.conn.executemany(
            "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
            " stability, difficulty, interval_days) VALUES (?, ?, ?, 4000, ?, ?, 10, 5, 3)",
            ((content[i % CARDS][0], rng.randint(1, 4), iso(when(i)), blob, blob)
             for i, blob in ((i, new_blob if i % 15 == 0 else review_blob) for i in range(LOG_ROWS))),
        )


def app_content(tmp: Path) -> tuple[object, list[tuple[str, str]]]:
    """The 305-question bank's real card ids, padded with synthetic ones to CARDS in all."""
    root = tmp / "content"
    build_bank(root)
    bank = load_bank([root], builtin=root)
    content = content_cards(bank)
    content += [(f"q/synthetic{i // 4}/c{i % 4}", f"m{i % 23}") for i in range(CARDS - len(content))]
    return bank, content


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.sqlite3"
        bank, content = app_content(Path(tmp))
        fill(path, content)
        clock = FixedClock(NOW)

        def open_store() -> None:
            with Store.open(path):  # the schema and every row checked before any write
                pass

        open_ms = median_ms(open_store, runs=5)
        with Store.open(path) as opened:

            def build() -> None:
                q = build_queue(opened, content, clock, LIMITS)
                done = q.new_done_today + q.reviews_done_today
                assert q.due and q.new and q.new_done_today and done == TODAY_ROWS, done

            queue_ms = median_ms(build, runs=5)

        times, store_ms = [], []
        with Store.open(path) as store:
            # Limits wide enough that 50 of the bank's own cards are on offer after today's 150 reviews.
            session = ReviewSession(store, bank, clock, FsrsScheduler(fuzz=True), Limits(100, 2000))
            session.content = content  # the synthetic cards too, so the queue holds 10,000 of them
            session.refresh()
            for _ in range(50):
                state, _view = session.next_card()
                start = time.perf_counter()
                session.rate(state, 3, 3000)  # scheduler, committed write, queue rebuilt, as the review screen does
                times.append((time.perf_counter() - start) * 1000)
            scheduler = FsrsScheduler(fuzz=True)
            for state in session.queue.due[:50]:
                start = time.perf_counter()
                out = scheduler.review(state, 3, NOW)
                store.record_review(state, out.after, 3, NOW, 3000, out.interval.total_seconds() / 86400)
                store_ms.append((time.perf_counter() - start) * 1000)
    return {
        "store_open_ms_100k_log": open_ms,
        "queue_build_ms_10k": queue_ms,
        "rate_ms_median": round(statistics.median(times), 2),
        "rate_store_only_ms_median": round(statistics.median(store_ms), 2),
    }
