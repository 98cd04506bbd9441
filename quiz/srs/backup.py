"""Daily backup copies of the progress database, made with SQLite's online backup API."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from datetime import datetime
from pathlib import Path

from quiz.srs.store import Store

log = logging.getLogger(__name__)
KEEP = 7
HEADER = b"SQLite format 3\x00"
STALE_S = 3600


def write_copy(conn: sqlite3.Connection, dest: Path) -> Path:
    """Copy the database behind `conn` to `dest` through a temporary file and a rename."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        target = sqlite3.connect(tmp)
        try:
            conn.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        finally:
            target.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return dest


def is_sound_copy(path: Path) -> bool:
    """Whether `path` is a non-empty SQLite file whose pages check out (a killed copy is not)."""
    try:
        with open(path, "rb") as fh:
            if fh.read(len(HEADER)) != HEADER:
                return False
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA quick_check(1)").fetchone()[0] == "ok"
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return False


def daily_backup(store: Store, folder: Path, today: datetime, keep: int = KEEP) -> Path | None:
    """Copy the database once per day into `folder`; an empty or unreadable copy of today is made again.

    Keeps the newest `keep` copies.
    """
    target = folder / f"progress-{today:%Y-%m-%d}.sqlite3"
    if target.exists() and is_sound_copy(target):
        return None
    try:
        for stale in folder.glob(".progress-*.tmp"):  # left by a copy that was killed (not one in progress)
            if time.time() - stale.stat().st_mtime > STALE_S:
                stale.unlink(missing_ok=True)
        store.backup(target)
    except Exception as exc:  # noqa: BLE001 - a failed backup must never stop a review
        log.warning("daily backup to %s failed: %s", target, exc)
        return None
    for old in sorted(folder.glob("progress-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    return target
