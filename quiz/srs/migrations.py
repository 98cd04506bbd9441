"""The progress database schema, as forward migrations; PRAGMA user_version holds the version."""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: cards, the review log, exercise attempts, quiz sessions
    """
    CREATE TABLE cards (
        card_id TEXT PRIMARY KEY,
        state INTEGER NOT NULL,
        step INTEGER,
        stability REAL,
        difficulty REAL,
        due TEXT,
        last_review TEXT,
        reps INTEGER NOT NULL DEFAULT 0,
        lapses INTEGER NOT NULL DEFAULT 0,
        suspended INTEGER NOT NULL DEFAULT 0,
        buried_until TEXT
    );
    CREATE INDEX cards_due ON cards(due);
    CREATE TABLE review_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        card_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        reviewed_at TEXT NOT NULL,
        duration_ms INTEGER,
        state_before TEXT NOT NULL,
        state_after TEXT NOT NULL,
        stability REAL,
        difficulty REAL,
        interval_days REAL,
        undone_at TEXT
    );
    CREATE INDEX review_log_time ON review_log(reviewed_at);
    CREATE TABLE exercise_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        exercise_id TEXT NOT NULL,
        attempted_at TEXT NOT NULL,
        status TEXT NOT NULL,
        passed INTEGER NOT NULL,
        total INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL
    );
    CREATE TABLE quiz_sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        mode TEXT NOT NULL,
        items INTEGER NOT NULL DEFAULT 0,
        correct INTEGER NOT NULL DEFAULT 0,
        summary TEXT
    );
    """,
    # 2: leeches, per-card lookups in the log, settings kept with the progress
    """
    ALTER TABLE cards ADD COLUMN leech INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX review_log_card ON review_log(card_id, id);
    CREATE INDEX exercise_attempts_id ON exercise_attempts(exercise_id, id);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
]

LATEST = len(MIGRATIONS)
