"""Grader messages in the learner's language: `say(en, zh)` picks one by the language of the grade in
progress (set by the worker for each request; forked checks inherit it). checks.py uses it too."""

from __future__ import annotations

LANG = "en"


def say(en: str, zh: str) -> str:
    return zh if LANG == "zh" else en


def set_lang(lang: str) -> None:
    global LANG
    LANG = "zh" if lang == "zh" else "en"
