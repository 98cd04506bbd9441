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

    def grade(self, exercise, folder, file):
        FakeGrader.calls += 1
        ok = "return x * 2" in Path(file).read_text()
        tests = [TestResult("gradcheck float64 (2, 3)", "pass" if ok else "fail", "" if ok else "wrong gradient for 'x'")]
        return Result(exercise["id"], "pass" if ok else "fail", "", 3, tests)


def make_context(tmp_path, lang="en", grader=FakeGrader, roots=None) -> AppContext:
    roots = roots or [FIXTURES / "srs-pack", FIXTURES / "exercises"]
    bank = load_bank([FIXTURES / "srs-pack"] + [r for r in roots if r != FIXTURES / "srs-pack"])
    settings = Settings(lang=lang)
    store = Store.open(tmp_path / "progress.sqlite3")
    services = Services(settings, store, FixedClock(T0), FsrsScheduler(fuzz=False))
    return AppContext(bank=bank, settings=settings, services=services, grader_factory=grader)
