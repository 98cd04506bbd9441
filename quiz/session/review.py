"""A review session: the next due card, previews of the four ratings, rating, undo, suspend, bury."""

from __future__ import annotations

from datetime import datetime, timedelta

from quiz.content.bank import Bank
from quiz.session.cards import CardView, card_view, content_cards, parse_card_id
from quiz.session.progress import Progress
from quiz.srs.cardstate import LEARNING, RELEARNING, CardState
from quiz.srs.clock import Clock, day_bounds
from quiz.srs.queue import Limits, Queue, after_rating, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store
from quiz.srs.undo import Action


def note_of(card_id: str) -> str:
    """The question a card belongs to: cards of one question are siblings."""
    return parse_card_id(card_id)[0]


class ReviewSession:
    def __init__(
        self,
        store: Store,
        bank: Bank,
        clock: Clock,
        scheduler: FsrsScheduler,
        limits: Limits,
        lang: str = "en",
        modules: list[str] | None = None,
        interleaved: bool = False,
    ):
        self.store, self.bank, self.clock, self.scheduler = store, bank, clock, scheduler
        self.limits, self.lang, self.modules, self.interleaved = limits, lang, modules, interleaved
        self.content = content_cards(bank, modules)
        self.siblings: dict[str, set[str]] = {}
        for card_id, _ in self.content:
            self.siblings.setdefault(note_of(card_id), set()).add(card_id)
        self.progress = Progress(store, clock, scheduler, limits)
        self.history: list[int] = []  # ratings given in this session, newest last
        self.queue: Queue = self.refresh()

    @property
    def reviewed(self) -> int:
        return len(self.history)

    @property
    def ratings(self) -> dict[int, int]:
        return {r: self.history.count(r) for r in (1, 2, 3, 4)}

    def refresh(self) -> Queue:
        self.queue = build_queue(
            self.store, self.content, self.clock, self.limits, self.interleaved, sibling_key=note_of
        )
        return self.queue

    def next_card(self) -> tuple[CardState, CardView] | None:
        """Due cards first (in due order), then new ones; None when nothing is left for now."""
        for state in self.queue.due:
            view = card_view(self.bank, state.card_id, self.lang)
            if view is not None:
                return state, view
        for card_id in self.queue.new:
            view = card_view(self.bank, card_id, self.lang)
            if view is not None:
                return self.store.card(card_id), view
        return None

    def preview(self, state: CardState) -> dict[int, timedelta]:
        return self.progress.preview(state)

    def rate(self, state: CardState, rating: int, duration_ms: int | None = None) -> CardState:
        outcome = self.progress.rate(state, rating, duration_ms)
        self.history.append(rating)
        siblings = self.siblings.get(note_of(state.card_id), set())
        self.queue = after_rating(self.queue, self.limits, state, outcome.after, self.clock.now(), siblings)
        return outcome.after

    def undo(self) -> Action | None:
        """Undo this session's newest action (a rating, suspend, bury, ...); None when there is none."""
        action = self.progress.undo()
        if action is not None:
            if action.kind == "rate" and self.history:
                self.history.pop()
            self.refresh()
        return action

    def suspend(self, state: CardState) -> None:
        self.progress.suspend(state.card_id)
        self.refresh()

    def bury(self, state: CardState) -> None:
        """Hide the card until the next study day starts."""
        self.progress.bury(state.card_id)
        self.refresh()

    def learning_later_today(self) -> tuple[int, datetime | None]:
        """Learning cards due later today (they come back after a few minutes)."""
        now = self.clock.now()
        _, end = day_bounds(now, self.clock.tz, self.limits.day_start_hour)
        wanted = {c for c, _ in self.content}
        soon = [
            s.due
            for s in self.store.cards().values()
            if s.card_id in wanted
            and not s.suspended
            and s.due
            and now < s.due < end
            and s.state in (LEARNING, RELEARNING)
            and not (s.buried_until and s.buried_until > now)
        ]
        return len(soon), (min(soon) if soon else None)
