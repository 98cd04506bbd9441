"""queue_build_ms_10k and rate_ms_median (the app's rating path, queue refresh included) with 10,000 cards."""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import median_ms

from quiz.content.bank import Bank
from quiz.content.models import Card, Module, Question, Text, TextList
from quiz.session.cards import content_cards
from quiz.session.review import ReviewSession
from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.clock import FixedClock, iso
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

QUESTIONS, CARDS_PER_QUESTION, MODULES, LOG_ROWS = 2_500, 3, 23, 100_000  # 2,500 x (1 + 3) = 10,000 cards
NOW = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)


def make_bank() -> Bank:
    bank = Bank()
    for m in range(MODULES):
        bank.modules[f"m{m}"] = Module(id=f"m{m}", number=m + 1, name=Text(en=f"M{m}"), summary=Text(en="-"))
    for i in range(QUESTIONS):
        cards = [Card(id=f"c{c}", front=Text(en=f"front {i}.{c}"), back=Text(en="back")) for c in range(1, CARDS_PER_QUESTION + 1)]
        bank.questions[f"q{i}"] = Question(format_version=1, id=f"q{i}", module=f"m{i % MODULES}", question=Text(en=f"question {i}"),
                                           answer=Text(en="answer"), key_points=TextList(en=["point"]), cards=cards)
    return bank


def fill(path: Path, content: list[tuple[str, str]]) -> None:
    rng = random.Random(7)
    with Store.open(path) as store, store.transaction():
        for card_id, _ in content[: len(content) - 500]:  # 500 cards stay new
            due = NOW + timedelta(days=rng.uniform(-5, 60))
            s = CardState(card_id, state=REVIEW, stability=rng.uniform(1, 90), difficulty=rng.uniform(1, 10),
                          due=due, last_review=due - timedelta(days=5), reps=10)
            store._put(s)
        blob = json.dumps(CardState("x").to_dict())
        store.conn.executemany(
            "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
            " stability, difficulty, interval_days) VALUES (?, ?, ?, 4000, ?, ?, 10, 5, 3)",
            ((content[i % len(content)][0], rng.randint(1, 4), iso(NOW - timedelta(days=1, minutes=i)), blob, blob)
             for i in range(LOG_ROWS)),
        )


def run() -> dict:
    bank = make_bank()
    content = content_cards(bank)
    assert len(content) == 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.sqlite3"
        fill(path, content)
        clock = FixedClock(NOW)
        limits = Limits(new_per_day=20, reviews_per_day=2000)

        def open_and_build() -> None:
            with Store.open(path) as store:
                q = build_queue(store, content, clock, limits)
                assert q.due and q.new

        queue_ms = median_ms(open_and_build, runs=5)
        times = []
        with Store.open(path) as store:
            session = ReviewSession(store, bank, clock, FsrsScheduler(fuzz=True), limits)
            for _ in range(60):
                state, _view = session.next_card()
                # what ReviewScreen.action_rate does: rate (commit + queue update), then show the next card
                start = time.perf_counter()
                session.rate(state, 3, 3000)
                nxt, _view = session.next_card()
                session.preview(nxt)
                times.append((time.perf_counter() - start) * 1000)
                clock.advance(seconds=5)
    return {"queue_build_ms_10k": queue_ms, "rate_ms_median": round(statistics.median(times[10:]), 2)}
