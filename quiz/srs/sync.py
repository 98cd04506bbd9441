"""Progress between machines: the review log as JSON lines, merged by review id, card states replayed."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from quiz.srs.cardstate import NEW, CardState
from quiz.srs.clock import iso
from quiz.srs.reschedule import replay
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

FORMAT = "quiz-progress"
VERSION = 1
_FIELDS = (
    "card_id",
    "rating",
    "reviewed_at",
    "duration_ms",
    "state_before",
    "state_after",
    "interval_days",
    "undone_at",
)


class SyncFileError(ValueError):
    """The file is not a progress export this version can read; the message names the line."""


def review_id(card_id: str, reviewed_at: str) -> str:
    """The id of a rating on every machine: its card and the instant (UTC, microseconds) it was given."""
    return f"{card_id}@{reviewed_at}"


@dataclass(frozen=True)
class ImportResult:
    added: int  # reviews new to this store
    skipped: int  # reviews it had already
    undone: int  # reviews undone elsewhere, now marked undone here too
    cards: int  # cards whose state was replayed


def export_log(store: Store, dest: Path) -> int:
    """Write every review (undone ones included, marked) to `dest`, oldest first; returns how many.

    The file is written under a temporary name and renamed, so `dest` is never half-written.
    """
    rows = store.conn.execute(
        "SELECT card_id, rating, reviewed_at, duration_ms, state_before, state_after, interval_days, undone_at"
        " FROM review_log ORDER BY reviewed_at, card_id"
    ).fetchall()
    dest = Path(dest)
    tmp = dest.with_name(dest.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(json.dumps({"format": FORMAT, "version": VERSION}) + "\n")
        for row in rows:
            item = {"id": review_id(row["card_id"], row["reviewed_at"])}
            for key in _FIELDS:
                item[key] = row[key]
            item["state_before"] = json.loads(row["state_before"])
            item["state_after"] = json.loads(row["state_after"])
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, dest)
    return len(rows)


def read_log(path: Path) -> list[dict]:
    """Every review in an export, checked; raises SyncFileError naming `file:line` at the first bad one."""
    path = Path(path)
    items: list[dict] = []
    with open(path, encoding="utf-8") as src:
        for number, line in enumerate(src, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SyncFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
            if number == 1:
                if not isinstance(item, dict) or item.get("format") != FORMAT:
                    raise SyncFileError(f"{path}:1: not a progress export (made by 'quiz progress export')")
                if item.get("version") != VERSION:
                    raise SyncFileError(f"{path}:1: export version {item.get('version')!r}; this quiz reads {VERSION}")
                continue
            items.append(_checked(item, f"{path}:{number}"))
    if not items and not path.stat().st_size:
        raise SyncFileError(f"{path}: empty file")
    return items


def _checked(item: object, where: str) -> dict:
    if not isinstance(item, dict):
        raise SyncFileError(f"{where}: a review should be a JSON object")
    try:
        card_id, rating, at = item["card_id"], item["rating"], item["reviewed_at"]
        if not isinstance(card_id, str) or not card_id.startswith("q/"):
            raise ValueError(f"card id {card_id!r}")
        if rating not in (1, 2, 3, 4) or isinstance(rating, bool):
            raise ValueError(f"rating {rating!r}")
        if iso(datetime.fromisoformat(at)) != at:
            raise ValueError(f"time {at!r} is not UTC with microseconds")
        if item.get("undone_at") is not None:
            datetime.fromisoformat(item["undone_at"])
        for key in ("state_before", "state_after"):
            if CardState.from_dict(item[key]).card_id != card_id:
                raise ValueError(f"{key} is for another card")
        if item.get("id") != review_id(card_id, at):
            raise ValueError(f"id {item.get('id')!r} does not match its card and time")
    except (KeyError, TypeError, ValueError) as exc:
        detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise SyncFileError(f"{where}: bad review ({detail})") from None
    return item


def import_log(store: Store, path: Path, scheduler: FsrsScheduler) -> ImportResult:
    """Merge an export into the store in one transaction: new reviews added, duplicates skipped,
    undo marks carried over, and every touched card replayed from the merged log.

    An interrupted import changes nothing; running it again finishes it; running it twice changes nothing.
    """
    items = read_log(path)
    with store.transaction() as conn:
        known = {
            review_id(r[0], r[1]): r[2] for r in conn.execute("SELECT card_id, reviewed_at, undone_at FROM review_log")
        }
        added = skipped = undone = 0
        touched: set[str] = set()
        for item in items:
            rid = item["id"]
            if rid not in known:
                conn.execute(
                    "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
                    " stability, difficulty, interval_days, undone_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        item["card_id"],
                        item["rating"],
                        item["reviewed_at"],
                        item.get("duration_ms"),
                        json.dumps(item["state_before"]),
                        json.dumps(item["state_after"]),
                        item["state_after"].get("stability"),
                        item["state_after"].get("difficulty"),
                        item.get("interval_days"),
                        item.get("undone_at"),
                    ),
                )
                known[rid] = item.get("undone_at")
                added += 1
                touched.add(item["card_id"])
            elif item.get("undone_at") and known[rid] is None:
                conn.execute(
                    "UPDATE review_log SET undone_at = ? WHERE card_id = ? AND reviewed_at = ?",
                    (item["undone_at"], item["card_id"], item["reviewed_at"]),
                )
                known[rid] = item["undone_at"]
                undone += 1
                touched.add(item["card_id"])
            else:
                skipped += 1
        for card_id in sorted(touched):
            store._restore(replayed(store, card_id, scheduler))
    return ImportResult(added, skipped, undone, len(touched))


def replayed(store: Store, card_id: str, scheduler: FsrsScheduler) -> CardState:
    """The card as the scheduler leaves it after its ratings in time order, from the last one given to it as new.

    This machine's flags (suspended, buried, leech) stay.
    """
    rows = store.conn.execute(
        "SELECT rating, reviewed_at, json_extract(state_before, '$.state') FROM review_log"
        " WHERE card_id = ? AND undone_at IS NULL ORDER BY reviewed_at",
        (card_id,),
    ).fetchall()
    starts = [i for i, row in enumerate(rows) if row[2] == NEW]
    rows = rows[starts[-1] :] if starts else rows
    fresh = replay(card_id, [(r[0], datetime.fromisoformat(r[1])) for r in rows], scheduler)
    now = store.card(card_id)
    return fresh.with_(suspended=now.suspended, buried_until=now.buried_until, leech=now.leech or fresh.leech)
