"""The progress store: SQLite in WAL mode; every rating is committed the moment it is given."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Iterator

from quiz.srs.cardstate import CardState
from quiz.srs.clock import iso
from quiz.srs.errors import StoreError, damaged, explain
from quiz.srs.migrations import LATEST, MIGRATIONS

log = logging.getLogger(__name__)

CARD_COLUMNS = (
    "card_id",
    "state",
    "step",
    "stability",
    "difficulty",
    "due",
    "last_review",
    "reps",
    "lapses",
    "suspended",
    "buried_until",
    "leech",
)


__all__ = ["Store", "StoreError"]

_ts = iso


def _row_to_state(row: sqlite3.Row) -> CardState:
    return CardState.from_dict({k: row[k] for k in CARD_COLUMNS})


class Store:
    """One connection; open with `Store.open(path)`; nothing happens at import time."""

    def __init__(self, conn: sqlite3.Connection, path: Path, busy_timeout_ms: int = 5000):
        self.conn = conn
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.on_wait = None  # called with a note when a write has to wait for another program's lock

    @classmethod
    def open(cls, path: Path, busy_timeout_ms: int = 5000) -> "Store":
        """Open (creating if needed) and migrate; raises StoreError, leaving a damaged file untouched."""
        from quiz.srs.opening import connect_checked

        path = Path(path)
        conn, version = connect_checked(path, busy_timeout_ms)
        store = cls(conn, path, busy_timeout_ms)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: safe against a crash or kill -9 of the app
            conn.execute("PRAGMA foreign_keys = ON")
            store._migrate(version)
        except (sqlite3.Error, StoreError) as exc:
            conn.close()
            raise explain(exc, path, busy_timeout_ms / 1000) from exc
        return store

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self, current: int) -> None:
        for number in range(current + 1, LATEST + 1):
            log.info("migrating %s to schema version %d", self.path, number)
            with self.transaction():
                if self.version >= number:  # another process migrated meanwhile
                    continue
                for statement in MIGRATIONS[number - 1].split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {number}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT: short write transactions, safe with two app instances.

        A database error becomes a StoreError that says what happened and what to do.
        """
        from quiz.srs.locking import begin_immediate

        try:
            begin_immediate(
                self.conn,
                self.busy_timeout_ms,
                self.on_wait,
                f"{self.path} is locked by another program; waiting up to {self.busy_timeout_ms / 1000:g} s for it ...",
            )
        except sqlite3.Error as exc:
            raise explain(exc, self.path, self.busy_timeout_ms / 1000) from exc
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:  # pragma: no cover - the transaction is gone already
                    pass
            if isinstance(exc, sqlite3.Error):
                raise explain(exc, self.path, self.busy_timeout_ms / 1000) from exc
            raise

    # --- cards -------------------------------------------------------------------------------

    def card(self, card_id: str) -> CardState:
        row = self.conn.execute("SELECT * FROM cards WHERE card_id = ?", (card_id,)).fetchone()
        return _row_to_state(row) if row else CardState(card_id)

    def cards(self) -> dict[str, CardState]:
        return {row["card_id"]: _row_to_state(row) for row in self.conn.execute("SELECT * FROM cards")}

    def _put(self, s: CardState) -> None:
        d = s.to_dict()
        d["suspended"], d["leech"] = int(s.suspended), int(s.leech)
        cols = ", ".join(CARD_COLUMNS)
        marks = ", ".join(f":{c}" for c in CARD_COLUMNS)
        self.conn.execute(f"INSERT OR REPLACE INTO cards ({cols}) VALUES ({marks})", d)

    def record_review(
        self,
        before: CardState,
        after: CardState,
        rating: int,
        at: datetime,
        duration_ms: int | None,
        interval_days: float,
    ) -> int:
        """Write the new card state and its log row in one committed transaction."""
        with self.transaction():
            self._put(after)
            cur = self.conn.execute(
                "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
                " stability, difficulty, interval_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    after.card_id,
                    rating,
                    _ts(at),
                    duration_ms,
                    json.dumps(before.to_dict()),
                    json.dumps(after.to_dict()),
                    after.stability,
                    after.difficulty,
                    interval_days,
                ),
            )
            return int(cur.lastrowid or 0)

    def set_flags(self, card_id: str, **flags) -> CardState:
        """Suspend/unsuspend (`suspended`), bury (`buried_until`), or clear `leech`."""
        with self.transaction():
            state = self.card(card_id).with_(**flags)
            self._put(state)
            return state

    def undo_review(self, log_id: int, at: datetime) -> CardState | None:
        """Undo one logged rating: its card goes back to the state logged before it; the row is kept, marked undone."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT card_id, state_before FROM review_log WHERE id = ? AND undone_at IS NULL", (log_id,)
            ).fetchone()
            if row is None:
                return None
            try:
                before = CardState.from_dict(json.loads(row["state_before"]))
            except (ValueError, TypeError) as exc:  # rolled back: nothing changes
                raise damaged(
                    self.path, f"review_log row {log_id} holds a card state that cannot be read: {exc}"
                ) from exc
            self._restore(before)
            self.conn.execute("UPDATE review_log SET undone_at = ? WHERE id = ?", (_ts(at), log_id))
            return before

    def restore(self, state: CardState) -> CardState:
        """Put a card back exactly as `state` (a fresh card with no flags leaves no row)."""
        with self.transaction():
            self._restore(state)
        return state

    def _restore(self, state: CardState) -> None:
        if state == CardState(state.card_id):
            self.conn.execute("DELETE FROM cards WHERE card_id = ?", (state.card_id,))
        else:
            self._put(state)

    def replace_cards(self, states: list[CardState]) -> None:
        """Write many card states in one transaction (rescheduling)."""
        with self.transaction():
            for state in states:
                self._put(state)

    def rating_history(self) -> dict[str, list[tuple[int, datetime, int]]]:
        """Every card's ratings, oldest first: (rating, reviewed_at, state before); undone ratings left out."""
        out: dict[str, list[tuple[int, datetime, int]]] = {}
        for row in self.conn.execute(
            "SELECT card_id, rating, reviewed_at, json_extract(state_before, '$.state') FROM review_log"
            " WHERE undone_at IS NULL ORDER BY id"
        ):
            out.setdefault(row[0], []).append((row[1], datetime.fromisoformat(row[2]), row[3]))
        return out

    # --- queue queries -----------------------------------------------------------------------

    def due_before(self, now: datetime, end: datetime) -> list[CardState]:
        """Cards with a due time before `end`, not suspended, not buried at `now`, in due order."""
        rows = self.conn.execute(
            "SELECT * FROM cards WHERE suspended = 0 AND (buried_until IS NULL OR buried_until <= ?) AND due < ?"
            " ORDER BY due",
            (_ts(now), _ts(end)),
        ).fetchall()
        return [_row_to_state(row) for row in rows]

    def unavailable_as_new(self, now: datetime) -> set[str]:
        """Ids of cards that cannot be shown as new cards now: studied, suspended, or buried."""
        return {
            r[0]
            for r in self.conn.execute(
                "SELECT card_id FROM cards WHERE state != 0 OR suspended != 0 OR (buried_until IS NOT NULL AND buried_until > ?)",
                (_ts(now),),
            )
        }

    def reviewed_between(self, start: datetime, end: datetime) -> set[str]:
        """Ids of the cards rated in [start, end) (undone ratings left out)."""
        return {
            r[0]
            for r in self.conn.execute(
                "SELECT DISTINCT card_id FROM review_log WHERE undone_at IS NULL AND reviewed_at >= ? AND reviewed_at < ?",
                (_ts(start), _ts(end)),
            )
        }

    def history(self, card_id: str) -> list[sqlite3.Row]:
        """A card's ratings, oldest first, undone ones included (their `undone_at` is set)."""
        return self.conn.execute(
            "SELECT id, rating, reviewed_at, duration_ms, interval_days, stability, difficulty, undone_at"
            " FROM review_log WHERE card_id = ? ORDER BY id",
            (card_id,),
        ).fetchall()

    # --- log queries -------------------------------------------------------------------------

    def reviews_between(self, start: datetime, end: datetime) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT * FROM review_log WHERE undone_at IS NULL AND reviewed_at >= ? AND reviewed_at < ? ORDER BY id",
            (_ts(start), _ts(end)),
        ).fetchall()

    def count_reviews_between(self, start: datetime, end: datetime) -> tuple[int, int]:
        """(reviews of cards that were new, all other reviews) in [start, end)."""
        row = self.conn.execute(
            "SELECT sum(json_extract(state_before, '$.state') = 0), count(*) FROM review_log"
            " WHERE undone_at IS NULL AND reviewed_at >= ? AND reviewed_at < ?",
            (_ts(start), _ts(end)),
        ).fetchone()
        new = row[0] or 0
        return new, (row[1] or 0) - new

    def review_summaries_since(self, since: datetime) -> list[sqlite3.Row]:
        """(card_id, rating, reviewed_at, before: the state before the rating) for each rating since `since`."""
        return self.conn.execute(
            "SELECT card_id, rating, reviewed_at, json_extract(state_before, '$.state') AS before FROM review_log"
            " WHERE undone_at IS NULL AND reviewed_at >= ?",
            (_ts(since),),
        ).fetchall()

    def review_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM review_log WHERE undone_at IS NULL").fetchone()[0]

    # --- exercises, sessions, settings -----------------------------------------------------

    def record_attempt(
        self, exercise_id: str, at: datetime, status: str, passed: int, total: int, duration_ms: int
    ) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO exercise_attempts (exercise_id, attempted_at, status, passed, total, duration_ms)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (exercise_id, _ts(at), status, passed, total, duration_ms),
            )

    def exercise_status(self) -> dict[str, str]:
        """'passed' if any attempt passed, else 'failing' if attempted; absent means not started."""
        out: dict[str, str] = {}
        for row in self.conn.execute(
            "SELECT exercise_id, max(status = 'pass') AS ok FROM exercise_attempts GROUP BY exercise_id"
        ):
            out[row["exercise_id"]] = "passed" if row["ok"] else "failing"
        return out

    def record_session(
        self, started: datetime, finished: datetime, mode: str, items: int, correct: int, summary: dict
    ) -> int:
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO quiz_sessions (started_at, finished_at, mode, items, correct, summary) VALUES (?, ?, ?, ?, ?, ?)",
                (_ts(started), _ts(finished), mode, items, correct, json.dumps(summary, ensure_ascii=False)),
            )
            return int(cur.lastrowid or 0)

    def sessions(self, limit: int = 20) -> list[sqlite3.Row]:
        return self.conn.execute("SELECT * FROM quiz_sessions ORDER BY id DESC LIMIT ?", (limit,)).fetchall()

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def backup(self, dest: Path) -> Path:
        """A consistent copy through SQLite's online backup API, safe while the app runs.

        The copy is written under a temporary name and renamed, so `dest` is never a partial file.
        """
        from quiz.srs.backup import write_copy

        try:
            return write_copy(self.conn, Path(dest))
        except (OSError, sqlite3.Error) as exc:
            raise explain(exc, Path(dest)) from exc
