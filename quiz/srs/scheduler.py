"""FSRS-6 through the `fsrs` package: the next state for a rating, and a preview of all four."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs import Card, Rating, Scheduler, State

from quiz.srs.cardstate import LEARNING, LEECH_LAPSES, NEW, RELEARNING, REVIEW, CardState

log = logging.getLogger(__name__)

RATINGS = {1: Rating.Again, 2: Rating.Hard, 3: Rating.Good, 4: Rating.Easy}
RATING_NAMES = {1: "again", 2: "hard", 3: "good", 4: "easy"}


@dataclass(frozen=True)
class Outcome:
    after: CardState
    interval: timedelta  # from the review to the next due time


class FsrsScheduler:
    def __init__(self, desired_retention: float = 0.9, fuzz: bool = True, parameters=None):
        """`parameters`: 21 FSRS-6 weights (from `quiz optimize`); None, empty or invalid: the defaults."""
        self.fsrs = Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)
        if parameters:
            try:
                self.fsrs = Scheduler(
                    parameters=tuple(parameters), desired_retention=desired_retention, enable_fuzzing=fuzz
                )
            except ValueError as exc:
                log.warning("fsrs_parameters not used (%s); using the defaults", exc)

    @property
    def custom(self) -> bool:
        """Whether fitted parameters are in use rather than the defaults."""
        return tuple(self.fsrs.parameters) != tuple(_DEFAULT.parameters)

    def review(self, before: CardState, rating: int, now: datetime) -> Outcome:
        if rating not in RATINGS:
            raise ValueError(f"rating must be 1-4, got {rating!r}")
        # fsrs fuzzes with the global `random`; seed it per card and repetition so the preview
        # shown before rating and the review that follows agree, then put the global state back
        saved = random.getstate()
        random.seed(f"{before.card_id}:{before.reps}:{rating}")
        try:
            card, _ = self.fsrs.review_card(_to_fsrs(before, now), RATINGS[rating], review_datetime=now)
        finally:
            random.setstate(saved)
        lapses = before.lapses + (1 if rating == 1 and before.state == REVIEW else 0)
        after = before.with_(
            state={State.Learning: LEARNING, State.Review: REVIEW, State.Relearning: RELEARNING}[card.state],
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=card.due,
            last_review=now,
            reps=before.reps + 1,
            lapses=lapses,
            leech=before.leech or lapses >= LEECH_LAPSES,
            buried_until=None,
        )
        return Outcome(after, card.due - now)

    def preview(self, before: CardState, now: datetime) -> dict[int, timedelta]:
        """The interval each rating would give, without changing anything."""
        return {r: self.review(before, r, now).interval for r in RATINGS}


_DEFAULT = Scheduler(enable_fuzzing=False)


def retrievability(s: CardState, now: datetime) -> float:
    """The probability of recalling the card at `now` (FSRS forgetting curve); 0 for a new card."""
    if s.state == NEW or s.stability is None or s.last_review is None:
        return 0.0
    return _DEFAULT.get_card_retrievability(_to_fsrs(s, now), now)


def _to_fsrs(s: CardState, now: datetime) -> Card:
    if s.state == NEW:
        return Card(card_id=0, state=State.Learning, step=0, due=now)
    state = {LEARNING: State.Learning, REVIEW: State.Review, RELEARNING: State.Relearning}[s.state]
    return Card(
        card_id=0,
        state=state,
        step=s.step,
        stability=s.stability,
        difficulty=s.difficulty,
        due=s.due or now,
        last_review=s.last_review,
    )


def format_interval(delta: timedelta) -> str:
    """A short human interval: 1m, 10m, 3h, 4d, 2.5mo, 1.2y."""
    seconds = max(delta.total_seconds(), 0)
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo"
    return f"{days / 365:.1f}y"
