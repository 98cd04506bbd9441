"""Text from content, config, learner code or the file system, made into widget content that is never markup."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.markup import escape


def plain(value: object) -> Content:
    """`value` as literal text for a Static, a Label, an option prompt or a notification."""
    return Content(str(value))


def markup(template: str, **values: object) -> Content:
    """Markup written in the app (`template`) with `$name` slots filled by `values` as literal text."""
    return Content.from_markup(template, **{name: str(value) for name, value in values.items()})


def cell(value: object) -> Text:
    """A DataTable cell that shows `value` literally (a plain `str` cell would be parsed as markup)."""
    return Text(str(value), end="")


def escaped(value: object) -> str:
    """For the few APIs that take only a markup string (the palette's help line)."""
    return escape(str(value))


def highlight(matcher, candidate: str) -> Content:
    """The palette's fuzzy-match highlight over `candidate` as literal text (Matcher.highlight parses markup)."""
    content = Content(candidate)
    score, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
    if not score:
        return content
    for offset in offsets:
        if not candidate[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
