"""Reschedule existing cards after the desired retention changes, by replaying their ratings (as fsrs's reschedule_card does)."""

from __future__ import annotations

from datetime import datetime

from quiz.srs.cardstate import NEW, CardState
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store


def replay(card_id: str, ratings: list[tuple[int, datetime]], scheduler: FsrsScheduler) -> CardState:
    """The card as `scheduler` would have left it after these ratings, given in order from new."""
    state = CardState(card_id)
    for rating, at in ratings:
        state = scheduler.review(state, rating, at).after
    return state


def reschedule_all(store: Store, scheduler: FsrsScheduler) -> int:
    """Replay every studied card's ratings since it was last new; flags (suspended, buried, leech) stay.

    fsrs's own `Scheduler.reschedule_card` replays with unseeded fuzz and its own state mapping;
    replaying through `FsrsScheduler.review` gives the same schedule with this app's seeded fuzz,
    lapse and leech counting. Returns how many cards changed.
    """
    current = store.cards()
    changed: list[CardState] = []
    for card_id, rows in store.rating_history().items():
        now = current.get(card_id)
        if now is None or now.is_new:
            continue
        starts = [i for i, (_, _, before) in enumerate(rows) if before == NEW]
        rows = rows[starts[-1] :] if starts else rows
        fresh = replay(card_id, [(r, at) for r, at, _ in rows], scheduler)
        fresh = fresh.with_(suspended=now.suspended, buried_until=now.buried_until, leech=now.leech or fresh.leech)
        if fresh != now:
            changed.append(fresh)
    store.replace_cards(changed)
    return len(changed)
