"""Building an app context over the test pack, with a fixed clock and a fake fast grader (no pytest here)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from quiz.config import Settings
from quiz.content.loader import load_bank
from quiz.grader.results import Result, TestResult
from quiz.services import Services
from quiz.srs.clock import FixedClock
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store
from quiz.tui.context import AppContext

FIXTURES = Path(__file__).parent.parent / "fixtures"
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


class FakeGrader:
    """Answers instantly: pass when the file contains 'return x * 2', else a failing check."""

    calls = 0

    def start(self):
        return 0

    def close(self):
        pass

    def grade(self, exercise, folder, file, lang="en"):
        FakeGrader.calls += 1
        ok = "return x * 2" in Path(file).read_text()
        tests = [
            TestResult("gradcheck float64 (2, 3)", "pass" if ok else "fail", "" if ok else "wrong gradient for 'x'")
        ]
        return Result(exercise["id"], "pass" if ok else "fail", "", 3, tests)


def make_context(tmp_path, lang="en", grader=FakeGrader, roots=None) -> AppContext:
    roots = roots or [FIXTURES / "srs-pack", FIXTURES / "exercises"]
    bank = load_bank([FIXTURES / "srs-pack"] + [r for r in roots if r != FIXTURES / "srs-pack"])
    settings = Settings(lang=lang)
    store = Store.open(tmp_path / "progress.sqlite3")
    services = Services(settings, store, FixedClock(T0), FsrsScheduler(fuzz=False))
    return AppContext(bank=bank, settings=settings, services=services, grader_factory=grader)


def seed_history(ctx: AppContext, days: int = 90) -> None:
    """A fixed study history before T0: each card reviewed whenever it falls due, ratings from a fixed pattern."""
    from datetime import timedelta

    from quiz.session.cards import content_cards

    s = ctx.services
    cards = [card_id for card_id, _ in content_cards(ctx.bank)]
    pattern = [3, 3, 4, 2, 3, 1, 3, 4, 3, 3, 2, 3]
    n = 0
    for day in range(days, 0, -1):
        when = T0 - timedelta(days=day, hours=2)
        for i, card_id in enumerate(cards):
            state = s.store.card(card_id)
            if state.is_new and i > (days - day) // 3:
                continue
            if not state.is_new and state.due and state.due > when:
                continue
            rating = pattern[n % len(pattern)]
            n += 1
            out = s.scheduler.review(state, rating, when)
            s.store.record_review(state, out.after, rating, when, 4000, out.interval.total_seconds() / 86400)
