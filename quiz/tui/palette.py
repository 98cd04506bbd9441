"""Command palette: jump to any question or exercise by number or title (zh or en), or search the text."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from quiz.tui.plain import escaped, highlight, plain


class ContentProvider(Provider):
    def _entries(self):
        app = self.app
        bank = app.ctx.bank
        for q in bank.ordered_questions():
            label = f"#{q.number} " if q.number else ""
            yield (f"{label}{q.question.get(app.lang)}", f"{q.id} · {q.module}",
                   partial(app.open_screen, "question", question_id=q.id),
                   " ".join(filter(None, [str(q.number or ""), q.id, q.question.zh, q.question.en])).lower(),
                   " ".join(filter(None, [q.answer.zh, q.answer.en])).lower())
        for ex in bank.exercises.values():
            yield (f"⚙ {ex.title.get(app.lang)}", f"{ex.id} · exercise",
                   partial(app.open_screen, "exercise", exercise_id=ex.id),
                   " ".join(filter(None, [ex.id, ex.title.zh, ex.title.en])).lower(), "")

    async def discover(self) -> Hits:
        for title, help_text, command, _, _ in list(self._entries())[:40]:
            yield DiscoveryHit(plain(title), command, text=title, help=escaped(help_text))

    async def search(self, query: str) -> Hits:
        needle = query.strip().lower()
        if not needle:
            return
        matcher = self.matcher(query)
        for title, help_text, command, head, body in self._entries():
            if needle in head:  # number, id or title (a Chinese substring matches too)
                score = 1.0 if needle == head.split(" ")[0] else 0.9
                yield Hit(score, highlight(matcher, title), command, text=title, help=escaped(help_text))
            elif needle in body:
                yield Hit(0.5, plain(title), command, text=title, help=escaped(f"{help_text} · found in the answer"))
            else:
                fuzzy = matcher.match(title)
                if fuzzy > 0:
                    yield Hit(fuzzy * 0.8, highlight(matcher, title), command, text=title, help=escaped(help_text))
