"""Exercises as a path: ordered by module and difficulty, the next unfinished one, and recording attempts."""

from __future__ import annotations

from quiz.content.bank import Bank


def exercise_path(bank: Bank) -> list[str]:
    """Every exercise id in learning order: module number, then difficulty, then id."""
    order = {m.id: m.number for m in bank.modules.values()}
    return [e.id for e in sorted(bank.exercises.values(), key=lambda e: (order.get(e.module, 999), e.difficulty, e.id))]


def next_unfinished(bank: Bank, status: dict[str, str], after: str | None = None) -> str | None:
    """The first exercise not yet passed after `after` on the path, wrapping round; None when all passed."""
    path = exercise_path(bank)
    start = path.index(after) + 1 if after in path else 0
    for exercise_id in path[start:] + path[:start]:
        if exercise_id != after and status.get(exercise_id) != "passed":
            return exercise_id
    return None
