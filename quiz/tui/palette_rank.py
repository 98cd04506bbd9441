"""Palette ranking without Textual: exact number/id hits, then title or id substrings, then answer text."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

EXACT, TITLE, BODY, FUZZY = 4000.0, 3000.0, 2000.0, 0.0


@dataclass(frozen=True)
class Entry:
    kind: str  # "question" or "exercise"
    target: str  # the question or exercise id
    number: int | None
    titles: tuple[str, ...]  # every language's title
    body: str  # answer text in every language, folded
    order: int  # position in the syllabus listing


def fold(text: str) -> str:
    """Case- and width-insensitive form for matching."""
    return unicodedata.normalize("NFKC", text).casefold()


def entries(bank) -> list[Entry]:
    """One entry per question (syllabus order), then one per exercise."""
    out: list[Entry] = []
    for q in bank.ordered_questions():
        titles = tuple(t for t in (q.question.en, q.question.zh) if t)
        body = fold(" ".join(filter(None, [q.answer.en, q.answer.zh])))
        out.append(Entry("question", q.id, q.number, titles, body, len(out)))
    for ex in sorted(bank.exercises.values(), key=lambda e: e.id):
        titles = tuple(t for t in (ex.title.en, ex.title.zh) if t)
        out.append(Entry("exercise", ex.id, None, titles, "", len(out)))
    return out


def tier(entry: Entry, query: str) -> float | None:
    """The base score of a literal hit, or None when the query does not appear literally."""
    needle = fold(query.strip())
    if not needle:
        return None
    bare = needle.lstrip("#")
    if (entry.number is not None and bare == str(entry.number)) or needle == entry.target:
        return EXACT
    if needle in entry.target or any(needle in fold(t) for t in entry.titles):
        return TITLE
    if entry.body and needle in entry.body:
        return BODY
    return None


def score(entry: Entry, query: str, fuzzy: float = 0.0) -> float:
    """Literal hits by tier, earlier syllabus entries first within a tier; fuzzy hits stay below all of them."""
    base = tier(entry, query)
    if base is None:
        return FUZZY + min(max(fuzzy, 0.0), 999.0)
    return base - entry.order * 0.01


def rank(items: list[Entry], query: str, fuzzy=None) -> list[Entry]:
    """`items` that match `query`, best first; `fuzzy(title) -> float` scores the rest (0 = no match)."""
    scored = []
    for e in items:
        f = 0.0
        if tier(e, query) is None:
            f = max((fuzzy(t) for t in e.titles), default=0.0) if fuzzy else 0.0
            if f <= 0:
                continue
        scored.append((score(e, query, f), e))
    scored.sort(key=lambda pair: -pair[0])
    return [e for _, e in scored]
