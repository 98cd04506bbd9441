"""Command palette: jump to any question or exercise by number, id or title (zh or en), or search the text."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from quiz.tui.palette_rank import BODY, entries, fold, score, tier
from quiz.tui.plain import highlight


def _highlight(title: str, query: str) -> Content:
    """Underline the literal match in the title, if the title holds it (a hit may come from the id)."""
    needle = fold(query.strip()).lstrip("#") or fold(query.strip())
    start = fold(title).find(needle)
    content = Content(title)
    if start < 0 or len(fold(title)) != len(title):
        return content
    return content.stylize("underline", start, start + len(needle))


class ContentProvider(Provider):
    def _entries(self):
        if not hasattr(self, "_cache"):
            self._cache = entries(self.app.ctx.bank)
        return self._cache

    def _title(self, entry) -> str:
        """One line: '#23 Question' or '⚙ Exercise title' in the current language."""
        bank, lang = self.app.ctx.bank, self.app.lang
        if entry.kind == "question":
            q = bank.questions[entry.target]
            return f"#{q.number} {q.question.get(lang)}" if q.number else q.question.get(lang)
        return f"⚙ {bank.exercises[entry.target].title.get(lang)}"

    def _command(self, entry):
        key = "question_id" if entry.kind == "question" else "exercise_id"
        return partial(self.app.open_screen, entry.kind, **{key: entry.target})

    async def discover(self) -> Hits:
        for entry in self._entries()[:40]:
            title = self._title(entry)
            yield DiscoveryHit(Content(title), self._command(entry), text=title)

    async def search(self, query: str) -> Hits:
        if not query.strip():
            return
        matcher = self.matcher(query)
        for entry in self._entries():
            title = self._title(entry)
            base = tier(entry, query)
            if base is None:
                fuzzy = matcher.match(title)
                if fuzzy <= 0:
                    continue
                yield Hit(score(entry, query, fuzzy), highlight(matcher, title), self._command(entry), text=title)
                continue
            shown = _highlight(title, query)
            if base == BODY:
                shown = Content.styled(f"{self.app.t('found_in_answer')}: ", "dim") + shown
            yield Hit(score(entry, query), shown, self._command(entry), text=title)
