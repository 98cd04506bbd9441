"""Every write of study progress goes through here: ratings, suspend, bury, forget, exercise attempts; each can be undone."""

from __future__ import annotations

from datetime import timedelta

from quiz.srs.cardstate import CardState
from quiz.srs.clock import Clock, day_bounds
from quiz.srs.queue import Limits
from quiz.srs.scheduler import FsrsScheduler, Outcome
from quiz.srs.store import Store
from quiz.srs.undo import Action, UndoStack


class Progress:
    """One session's writes, with that session's undo stack."""

    def __init__(self, store: Store, clock: Clock, scheduler: FsrsScheduler, limits: Limits):
        self.store, self.clock, self.scheduler, self.limits = store, clock, scheduler, limits
        self.undo_stack = UndoStack()

    def preview(self, state: CardState) -> dict[int, timedelta]:
        return self.scheduler.preview(state, self.clock.now())

    def rate(self, state: CardState, rating: int, duration_ms: int | None = None) -> Outcome:
        """Schedule the card for this rating and commit it with its log row."""
        now = self.clock.now()
        outcome = self.scheduler.review(state, rating, now)
        log_id = self.store.record_review(
            state, outcome.after, rating, now, duration_ms, outcome.interval.total_seconds() / 86400
        )
        self.undo_stack.push(Action("rate", state.card_id, state, log_id=log_id, rating=rating))
        return outcome

    def _flag(self, kind: str, card_id: str, **flags) -> CardState:
        before = self.store.card(card_id)
        after = self.store.set_flags(card_id, **flags)
        self.undo_stack.push(Action(kind, card_id, before))
        return after

    def suspend(self, card_id: str) -> CardState:
        return self._flag("suspend", card_id, suspended=True)

    def unsuspend(self, card_id: str) -> CardState:
        return self._flag("unsuspend", card_id, suspended=False)

    def bury(self, card_id: str) -> CardState:
        """Hide the card until the next study day starts, whatever its state."""
        _, end = day_bounds(self.clock.now(), self.clock.tz, self.limits.day_start_hour)
        return self._flag("bury", card_id, buried_until=end)

    def unbury(self, card_id: str) -> CardState:
        return self._flag("unbury", card_id, buried_until=None)

    def forget(self, card_id: str) -> CardState:
        """Reset the card to new; its review history is kept, and a suspension stays."""
        before = self.store.card(card_id)
        after = self.store.restore(CardState(card_id, suspended=before.suspended))
        self.undo_stack.push(Action("forget", card_id, before))
        return after

    def undo(self) -> Action | None:
        """Undo this session's newest action; None when there is nothing left to undo."""
        return self.undo_stack.undo(self.store, self.clock.now())

    def record_attempt(self, result) -> None:
        """An exercise grade (a quiz.grader.results.Result) joins the exercise's attempts."""
        self.store.record_attempt(
            result.exercise, self.clock.now(), result.status, result.passed, len(result.tests), result.duration_ms
        )

    def record_quiz(self, started_seconds_ago: float, mode: str, summary) -> int:
        """A finished quiz or mock interview (a quiz.session.quiz.QuizSummary), kept with its outcomes."""
        now = self.clock.now()
        return self.store.record_session(
            now - timedelta(seconds=started_seconds_ago),
            now,
            mode,
            len(summary.outcomes),
            summary.correct,
            summary.to_dict(),
        )
