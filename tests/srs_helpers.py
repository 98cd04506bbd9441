"""Helpers for SRS tests: a fixed clock, a small bank of cards, an open store."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from quiz.content.loader import load_bank
from quiz.srs.clock import FixedClock

PACK = Path(__file__).parent / "fixtures" / "srs-pack"
T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


def clock() -> FixedClock:
    return FixedClock(T0)


def small_bank():
    return load_bank([PACK])
