"""Spaced repetition: FSRS-6 scheduling and the SQLite progress store (no UI, no content)."""
