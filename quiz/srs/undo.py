"""A session's undo stack: each action on a card (rate, suspend, bury, forget, ...) undone exactly, newest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quiz.srs.cardstate import CardState
from quiz.srs.store import Store

KINDS = ("rate", "suspend", "unsuspend", "bury", "unbury", "forget")


@dataclass(frozen=True)
class Action:
    kind: str  # one of KINDS
    card_id: str
    before: CardState  # the card as it was, restored by undo
    log_id: int | None = None  # the review-log row of a rating
    rating: int | None = None


RATING_WORDS = {1: "again", 2: "hard", 3: "good", 4: "easy"}


def describe(action: Action) -> str:
    """What was done, in words: 'rating good of q/q1', 'suspend of q/q2'."""
    word = RATING_WORDS.get(action.rating, str(action.rating)) if action.rating is not None else "?"
    what = f"rating {word}" if action.kind == "rate" else action.kind
    return f"{what} of {action.card_id}"


class UndoStack:
    """Only this session's actions; undo never reaches a rating given elsewhere."""

    def __init__(self) -> None:
        self._actions: list[Action] = []

    def __len__(self) -> int:
        return len(self._actions)

    def push(self, action: Action) -> Action:
        if action.kind not in KINDS:
            raise ValueError(f"unknown action {action.kind!r}")
        self._actions.append(action)
        return action

    def peek(self) -> Action | None:
        return self._actions[-1] if self._actions else None

    def undo(self, store: Store, at: datetime) -> Action | None:
        """Undo the newest action: a rating's log row is marked undone; the card is put back as it was."""
        if not self._actions:
            return None
        action = self._actions[-1]
        if action.log_id is not None:
            store.undo_review(action.log_id, at)
        else:
            store.restore(action.before)
        self._actions.pop()
        return action
