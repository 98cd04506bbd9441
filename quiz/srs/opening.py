"""Opening the progress database: refuse a file path that cannot hold it, and check an existing file before use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from quiz.srs import integrity
from quiz.srs.errors import StoreError, damaged, explain, not_a_database, not_a_folder
from quiz.srs.migrations import LATEST


def _folder_problem(path: Path) -> StoreError | None:
    """A file where a folder of the database's path should be (QUIZ_HOME pointing at a file, say)."""
    for parent in [path.parent, *path.parent.parents]:
        try:
            if parent.exists():
                return None if parent.is_dir() else not_a_folder(parent)
        except OSError as exc:  # pragma: no cover - an unreadable ancestor
            return explain(exc, path)
    return None


def connect_checked(path: Path, busy_timeout_ms: int) -> tuple[sqlite3.Connection, int]:
    """A connection and the schema version, after checks that only read; raises StoreError.

    An existing database is checked (pages with quick_check, the tables and columns of its schema
    version, and rows the app parses) before anything can write to it, so a damaged file is left
    byte-identical.
    """
    problem = _folder_problem(path)
    if problem is not None:
        raise problem
    exists = path.exists()
    if exists and not path.is_file():
        raise StoreError(
            f"{path} is not a file; move it away so the progress database can be created there", "not_a_folder"
        )
    if not exists:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise explain(exc, path) from exc
    try:
        conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise explain(exc, path, busy_timeout_ms / 1000) from exc
    conn.row_factory = sqlite3.Row
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if version > LATEST:
            raise StoreError(
                f"{path} has schema version {version}, newer than this app understands ({LATEST}). "
                f"It was left untouched; upgrade the app to use it.",
                "newer",
            )
        if version == 0 and tables:
            raise not_a_database(path, "it holds tables, but not those of a progress database")
        found = integrity.problems(conn, version) if version > 0 else []
        if found:
            raise damaged(path, "; ".join(found))
    except StoreError:
        conn.close()
        raise
    except sqlite3.Error as exc:
        conn.close()
        error = explain(exc, path, busy_timeout_ms / 1000)
        if error.kind == "damaged":
            error = not_a_database(path, str(exc))
        raise error from exc
    return conn, version
