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
_INT, _NUM = ("integer",), ("integer", "real", "null")
TYPES: dict[str, dict[str, tuple[str, ...]]] = {
    "cards": {
        "state": _INT,
        "reps": _INT,
        "lapses": _INT,
        "suspended": _INT,
        "leech": _INT,
        "step": ("integer", "null"),
        "stability": _NUM,
        "difficulty": _NUM,
    },
    "review_log": {"rating": _INT},
}


def expected_schema(version: int) -> dict[str, set[str]]:
    """Table -> column names that schema `version` has, from the migrations themselves."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS[:version]:
            conn.executescript(script)
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
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


# the form the app writes (clock.iso); anything else is checked by Python, which is slower
_ISO = (
    "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]+00:00"
)


def _time_bad(expr: str) -> str:
    """SQL true when `expr` is a timestamp that cannot be read (NULL is fine)."""
    # the '+0 days' modifier makes SQLite normalise an impossible date (02-30), which then differs
    usual = (
        f"coalesce(typeof({expr}) = 'text' AND {expr} GLOB '{_ISO}' AND "
        f"strftime('%Y-%m-%dT%H:%M:%S', substr({expr}, 1, 19), '+0 days') = substr({expr}, 1, 19), 0)"
    )
    return f"({expr} IS NOT NULL AND NOT {usual} AND quiz_bad_time({expr}))"


def _not_object(column: str) -> str:
    """SQL true when a logged card state is not a JSON object (its fields are read when a rating is undone)."""
    return f"(CASE WHEN json_valid({column}) THEN json_type({column}) != 'object' ELSE 1 END)"


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
    for table, columns in expected.items():
        checks = _row_checks(table, columns)
        if checks:
            _first_bad(conn, found, table, checks)
    return found[:MAX_REPORTED]


def _row_checks(table: str, columns: set[str]) -> list[tuple[str, str]]:
    """(SQL condition, what it finds) for the rows of `table`, as the app reads them."""
    checks = []
    times = [c for c in TIMES.get(table, ()) if c in columns]
    if times:
        checks.append((" OR ".join(_time_bad(c) for c in times), "a date that cannot be read"))
    if table == "review_log":
        checks.append(
            (
                f"{_not_object('state_before')} OR {_not_object('state_after')}",
                "a logged card state that is not a JSON object",
            )
        )
    json_columns = [c for c in JSON.get(table, ()) if c in columns and table != "review_log"]
    if json_columns:
        checks.append(
            (
                " OR ".join(f"({c} IS NOT NULL AND NOT json_valid({c}))" for c in json_columns),
                "text that is not valid JSON",
            )
        )
    typed = {c: kinds for c, kinds in TYPES.get(table, {}).items() if c in columns}
    if typed:
        checks.append(
            (
                " OR ".join(f"typeof({c}) NOT IN ({', '.join(repr(t) for t in kinds)})" for c, kinds in typed.items()),
                "a value of the wrong type",
            )
        )
    return checks


def _first_bad(conn: sqlite3.Connection, found: list[str], table: str, checks: list[tuple[str, str]]) -> None:
    """One pass over `table`: the first row that fails a check, and which check."""
    what = "CASE " + " ".join(f"WHEN {cond} THEN {i}" for i, (cond, _) in enumerate(checks)) + " END"
    row = conn.execute(f"SELECT rowid, {what} AS bad FROM {table} WHERE bad IS NOT NULL LIMIT 1").fetchone()
    if row is not None:
        found.append(f"{table} row {row[0]} holds {checks[row[1]][1]}")
