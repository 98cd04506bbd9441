"""Exports of the question bank to other apps (Anki)."""
