"""Today's queue: due cards in due order, then new cards in syllabus (or interleaved) order, within daily limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.clock import Clock, day_bounds, iso
from quiz.srs.store import Store, _row_to_state


@dataclass
class Limits:
    new_per_day: int = 20
    reviews_per_day: int = 200
    day_start_hour: int = 4


@dataclass
class Queue:
    due: list[CardState] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    due_total: int = 0  # due today before the review limit was applied
    new_done_today: int = 0
    reviews_done_today: int = 0
    day_start: datetime | None = None
    day_end: datetime | None = None

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


def build_queue(store: Store, content: list[tuple[str, str]], clock: Clock, limits: Limits,
                interleaved: bool = False) -> Queue:
    """`content` lists (card_id, module_id) in syllabus order; cards outside it stay hidden."""
    now = clock.now()
    start, end = day_bounds(now, clock.tz, limits.day_start_hour)
    new_done, reviews_done = store.count_reviews_between(start, end)
    wanted = {card_id for card_id, _ in content}
    rows = store.conn.execute(
        "SELECT * FROM cards WHERE suspended = 0 AND (buried_until IS NULL OR buried_until <= ?) AND due < ? ORDER BY due",
        (iso(now), iso(end)),
    ).fetchall()
    due = []
    for row in rows:
        if row["card_id"] not in wanted:
            continue
        state = _row_to_state(row)
        if state.state == REVIEW or (state.due is not None and state.due <= now):
            due.append(state)
    known = {r[0] for r in store.conn.execute("SELECT card_id FROM cards")}
    fresh = [item for item in content if item[0] not in known]
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
    )
