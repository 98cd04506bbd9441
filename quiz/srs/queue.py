"""Today's queue: due cards in due order, then new cards in syllabus (or interleaved) order, within daily limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.clock import Clock, day_bounds
from quiz.srs.store import Store


@dataclass
class Limits:
    new_per_day: int = 20
    reviews_per_day: int = 200
    day_start_hour: int = 4
    bury_siblings: bool = True  # siblings of a card rated today wait until the next study day


@dataclass
class Queue:
    due: list[CardState] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    due_total: int = 0  # due today before the review limit was applied
    new_done_today: int = 0
    reviews_done_today: int = 0
    day_start: datetime | None = None
    day_end: datetime | None = None
    due_all: list[CardState] = field(default_factory=list)  # every due card, before the review limit
    candidates: list[str] = field(default_factory=list)  # every available new card, in order, before the new limit

    def __len__(self) -> int:
        return len(self.due) + len(self.new)


def interleave(ordered: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Round-robin across modules, keeping each module's own order."""
    by_module: dict[str, list[tuple[str, str]]] = {}
    for item in ordered:
        by_module.setdefault(item[1], []).append(item)
    out: list[tuple[str, str]] = []
    lanes = list(by_module.values())
    i = 0
    while any(lanes):
        lane = lanes[i % len(lanes)]
        if lane:
            out.append(lane.pop(0))
        i += 1
    return out


def build_queue(
    store: Store,
    content: list[tuple[str, str]],
    clock: Clock,
    limits: Limits,
    interleaved: bool = False,
    sibling_key: Callable[[str], str] | None = None,
) -> Queue:
    """`content` lists (card_id, module_id) in syllabus order; cards outside it stay hidden.

    A card that is new (never rated, or rated and undone) and neither suspended nor buried is a
    new card, whether or not it has a row. With `sibling_key` (card id -> its note) and
    `limits.bury_siblings`, new and review cards whose sibling was rated today wait until tomorrow.
    """
    now = clock.now()
    start, end = day_bounds(now, clock.tz, limits.day_start_hour)
    new_done, reviews_done = store.count_reviews_between(start, end)
    wanted = {card_id for card_id, _ in content}
    buried_notes: set[str] = set()
    rated_today: set[str] = set()
    if sibling_key is not None and limits.bury_siblings:
        rated_today = store.reviewed_between(start, end)
        buried_notes = {sibling_key(c) for c in rated_today}

    def sibling_waits(card_id: str) -> bool:
        return (
            sibling_key is not None
            and bool(buried_notes)
            and card_id not in rated_today
            and sibling_key(card_id) in buried_notes
        )

    due = []
    for state in store.due_before(now, end):
        if state.card_id not in wanted or state.is_new:
            continue
        if state.state == REVIEW and sibling_waits(state.card_id):
            continue
        if state.state == REVIEW or (state.due is not None and state.due <= now):
            due.append(state)
    blocked = store.unavailable_as_new(now)
    fresh = [item for item in content if item[0] not in blocked and not sibling_waits(item[0])]
    if interleaved:
        fresh = interleave(fresh)
    review_room = max(limits.reviews_per_day - reviews_done, 0)
    new_room = max(limits.new_per_day - new_done, 0)
    return Queue(
        due=due[:review_room],
        new=[card_id for card_id, _ in fresh[:new_room]],
        due_total=len(due),
        new_done_today=new_done,
        reviews_done_today=reviews_done,
        day_start=start,
        day_end=end,
        due_all=due,
        candidates=[card_id for card_id, _ in fresh],
    )


def after_rating(
    queue: Queue,
    limits: Limits,
    before: CardState,
    after: CardState,
    now: datetime,
    siblings: frozenset[str] | set[str] = frozenset(),
) -> Queue:
    """The queue as `build_queue` would give it right after one rating, without reading the store.

    `siblings` are the rated card's siblings, held back when `limits.bury_siblings` is on.
    """
    gone = {before.card_id}
    if limits.bury_siblings:
        gone |= set(siblings) - {before.card_id}
    due_all = [
        s for s in queue.due_all if s.card_id != before.card_id and not (s.card_id in gone and s.state == REVIEW)
    ]
    candidates = [c for c in queue.candidates if c not in gone]
    if (
        after.due is not None
        and queue.day_end is not None
        and (after.due <= now or (after.state == REVIEW and after.due < queue.day_end))
    ):
        due_all.append(after)
        due_all.sort(key=lambda s: s.due or now)
    new_done = queue.new_done_today + (1 if before.is_new else 0)
    reviews_done = queue.reviews_done_today + (0 if before.is_new else 1)
    review_room = max(limits.reviews_per_day - reviews_done, 0)
    new_room = max(limits.new_per_day - new_done, 0)
    return Queue(
        due=due_all[:review_room],
        new=candidates[:new_room],
        due_total=len(due_all),
        new_done_today=new_done,
        reviews_done_today=reviews_done,
        day_start=queue.day_start,
        day_end=queue.day_end,
        due_all=due_all,
        candidates=candidates,
    )
