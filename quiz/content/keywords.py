"""Keyword concept groups: match a typed text against groups of synonyms, per language."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quiz.content.models import KeywordGroup

_SEPARATORS = re.compile(r"[\s_\-./·・]+")


def normalize(text: str) -> str:
    """Width- and case-insensitive form (NFKC, casefold) without spaces and `_ - . /` separators."""
    return _SEPARATORS.sub("", unicodedata.normalize("NFKC", text).casefold())


def terms(group: str | KeywordGroup, lang: str) -> list[str]:
    """The synonyms of `group` in `lang` first, then those of the other language."""
    if isinstance(group, str):
        return [group]
    own = list(getattr(group, lang, None) or [])
    other = list(group.zh if lang == "en" else group.en)
    return own + [t for t in other if t not in own]


def label(group: str | KeywordGroup, lang: str) -> str:
    """How the group is shown: its first synonym in `lang`."""
    return terms(group, lang)[0]


def covers(normalized_text: str, group: str | KeywordGroup, lang: str) -> bool:
    """True when any synonym of the group (either language) appears in the normalized text."""
    return any((n := normalize(t)) and n in normalized_text for t in terms(group, lang))


def coverage(text: str, groups: list, lang: str) -> tuple[list, list]:
    """(covered, missing) groups of `groups` for a typed `text`."""
    norm = normalize(text)
    covered = [g for g in groups if covers(norm, g, lang)]
    return covered, [g for g in groups if not any(g is c for c in covered)]


def own_language_covers(normalized_text: str, group: str | KeywordGroup, lang: str) -> bool:
    """True when a synonym listed for `lang` itself appears (what `quiz validate` asks of an answer)."""
    if isinstance(group, str):
        return covers(normalized_text, group, lang)
    return any((n := normalize(t)) and n in normalized_text for t in getattr(group, lang))
