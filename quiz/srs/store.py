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
from quiz.srs.migrations import LATEST, MIGRATIONS

log = logging.getLogger(__name__)

CARD_COLUMNS = ("card_id", "state", "step", "stability", "difficulty", "due", "last_review",
                "reps", "lapses", "suspended", "buried_until", "leech")


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says where it is and what to do."""


_ts = iso


def _row_to_state(row: sqlite3.Row) -> CardState:
    return CardState.from_dict({k: row[k] for k in CARD_COLUMNS})


class Store:
    """One connection; open with `Store.open(path)`; nothing happens at import time."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path, busy_timeout_ms: int = 5000) -> "Store":
        path = Path(path)
        exists = path.exists()
        if exists and not path.is_file():
            raise StoreError(f"{path} is not a file; move it away so the progress database can be created there")
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the progress database {path}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(
                f"{path} is not a readable progress database ({exc}). It was left untouched. "
                f"Move or rename it (your progress is in it, or in the backups/ folder beside it), "
                f"then start again to create a fresh one."
            ) from exc
        if version > LATEST:
            conn.close()
            raise StoreError(
                f"{path} has schema version {version}, newer than this app understands ({LATEST}). "
                f"It was left untouched; upgrade the app to use it."
            )
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: safe against a crash or kill -9 of the app
        conn.execute("PRAGMA foreign_keys = ON")
        store = cls(conn, path)
        store._migrate(version)
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
        """BEGIN IMMEDIATE ... COMMIT: short write transactions, safe with two app instances."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

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

    def record_review(self, before: CardState, after: CardState, rating: int, at: datetime,
                      duration_ms: int | None, interval_days: float) -> int:
        """Write the new card state and its log row in one committed transaction."""
        with self.transaction():
            self._put(after)
            cur = self.conn.execute(
                "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, state_before, state_after,"
                " stability, difficulty, interval_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (after.card_id, rating, _ts(at), duration_ms, json.dumps(before.to_dict()),
                 json.dumps(after.to_dict()), after.stability, after.difficulty, interval_days),
            )
            return int(cur.lastrowid or 0)

    def undo_last(self, at: datetime) -> CardState | None:
        """Put the most recently rated card back exactly as it was; the log row is kept, marked undone."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT id, card_id, state_before FROM review_log WHERE undone_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            before = CardState.from_dict(json.loads(row["state_before"]))
            if before.is_new:
                self.conn.execute("DELETE FROM cards WHERE card_id = ?", (row["card_id"],))
            else:
                self._put(before)
            self.conn.execute("UPDATE review_log SET undone_at = ? WHERE id = ?", (_ts(at), row["id"]))
            return before

    def set_flags(self, card_id: str, **flags) -> CardState:
        """Suspend/unsuspend (`suspended`), bury (`buried_until`), or clear `leech`."""
        with self.transaction():
            state = self.card(card_id).with_(**flags)
            self._put(state)
            return state

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

    def review_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM review_log WHERE undone_at IS NULL").fetchone()[0]

    # --- exercises, sessions, settings -----------------------------------------------------

    def record_attempt(self, exercise_id: str, at: datetime, status: str, passed: int, total: int, duration_ms: int) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO exercise_attempts (exercise_id, attempted_at, status, passed, total, duration_ms)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (exercise_id, _ts(at), status, passed, total, duration_ms),
            )

    def exercise_status(self) -> dict[str, str]:
        """'passed' if any attempt passed, else 'failing' if attempted; absent means not started."""
        out: dict[str, str] = {}
        for row in self.conn.execute("SELECT exercise_id, max(status = 'pass') AS ok FROM exercise_attempts GROUP BY exercise_id"):
            out[row["exercise_id"]] = "passed" if row["ok"] else "failing"
        return out

    def record_session(self, started: datetime, finished: datetime, mode: str, items: int, correct: int, summary: dict) -> int:
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
        """A consistent copy through SQLite's online backup API, safe while the app runs."""
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(dest)
        try:
            self.conn.backup(target)
        finally:
            target.close()
        return dest
