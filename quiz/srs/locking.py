"""Starting a write transaction: a short try, then a visible note, then waiting up to the busy timeout."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

FIRST_TRY_MS = 300


class LockWait(Exception):
    """Raised by an `on_wait` that would rather try again later than block (the app's UI thread)."""


def _is_busy(exc: sqlite3.Error) -> bool:
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    return code in (5, 6) or "locked" in str(exc)


def begin_immediate(
    conn: sqlite3.Connection, busy_timeout_ms: int, on_wait: Callable[[str], None] | None, note: str
) -> None:
    """BEGIN IMMEDIATE; when another writer holds the lock, call `on_wait(note)` once and keep waiting."""
    if busy_timeout_ms <= FIRST_TRY_MS or on_wait is None:
        conn.execute("BEGIN IMMEDIATE")
        return
    conn.execute(f"PRAGMA busy_timeout = {FIRST_TRY_MS}")
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
        on_wait(note)
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms - FIRST_TRY_MS}")
        conn.execute("BEGIN IMMEDIATE")
    finally:
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
