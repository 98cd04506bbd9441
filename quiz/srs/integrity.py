"""Checks of an existing progress database before anything is written to it: pages, schema and rows."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from quiz.srs.migrations import MIGRATIONS

MAX_REPORTED = 3

# columns holding timestamps (ISO-8601 text) and JSON, per table, as the app writes them
TIMES = {
    "cards": ("due", "last_review", "buried_until"),
    "review_log": ("reviewed_at", "undone_at"),
    "exercise_attempts": ("attempted_at",),
    "quiz_sessions": ("started_at", "finished_at"),
}
JSON = {"review_log": ("state_before", "state_after"), "quiz_sessions": ("summary",)}
INTEGERS = {"cards": ("state", "reps", "lapses"), "review_log": ("rating",)}


def expected_schema(version: int) -> dict[str, set[str]]:
    """Table -> column names that schema `version` has, from the migrations themselves."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS[:version]:
            conn.executescript(script)
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in conn.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        conn.close()


def _bad_time(value) -> int:
    if value is None:
        return 0
    if not isinstance(value, str):
        return 1
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return 1
    return 0


def _state_bad(column: str) -> str:
    """SQL true when a logged card state is not a JSON object whose dates can be read."""
    dates = " OR ".join(f"quiz_bad_time(json_extract({column}, '$.{key}'))" for key in ("due", "last_review", "buried_until"))
    return f"(CASE WHEN json_valid({column}) AND json_type({column}) = 'object' THEN ({dates}) ELSE 1 END)"


def problems(conn: sqlite3.Connection, version: int) -> list[str]:
    """What is wrong with the database (empty when it is sound); reads only."""
    rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
    if rows != ["ok"]:
        return [f"integrity check: {'; '.join(map(str, rows[:MAX_REPORTED]))}"]
    found: list[str] = []
    expected = expected_schema(version)
    actual_tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, columns in expected.items():
        if table not in actual_tables:
            found.append(f"table '{table}' is missing")
            continue
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        missing = sorted(columns - have)
        if missing:
            found.append(f"table '{table}' lacks column(s) {', '.join(missing)}")
    if found:
        return found
    conn.create_function("quiz_bad_time", 1, _bad_time, deterministic=True)
    for table, columns in TIMES.items():
        if table in expected:
            _first_bad(conn, found, table, " OR ".join(f"quiz_bad_time({c})" for c in columns), "a date that cannot be read")
    for table, columns in JSON.items():
        if table in expected:
            cond = " OR ".join(f"({c} IS NOT NULL AND NOT json_valid({c}))" for c in columns)
            _first_bad(conn, found, table, cond, "text that is not valid JSON")
    if "review_log" in expected:
        _first_bad(conn, found, "review_log", f"{_state_bad('state_before')} OR {_state_bad('state_after')}",
                   "a logged card state that cannot be read")
    for table, columns in INTEGERS.items():
        if table in expected:
            _first_bad(conn, found, table, " OR ".join(f"typeof({c}) != 'integer'" for c in columns), "a number that is not an integer")
    return found[:MAX_REPORTED]


def _first_bad(conn: sqlite3.Connection, found: list[str], table: str, condition: str, what: str) -> None:
    row = conn.execute(f"SELECT rowid FROM {table} WHERE {condition} LIMIT 1").fetchone()
    if row is not None:
        found.append(f"{table} row {row[0]} holds {what}")
