"""The end of a quiz session: score, time, weakest topics (the session is already in the store)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Header, Markdown

from quiz.session.quiz import QuizSummary
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar


class QuizSummaryScreen(BaseScreen):
    def __init__(self, summary: QuizSummary, seconds: float):
        super().__init__()
        self.summary, self.seconds = summary, seconds

    def compose(self) -> ComposeResult:
        s, bank, lang = self.summary, self.ctx.bank, self.lang
        total = len(s.outcomes)
        mins, secs = divmod(int(self.seconds), 60)
        lines = [
            f"# {self.t('summary')}",
            f"**{self.t('score')}**: {s.correct}/{total}" + (f" ({s.correct / total:.0%})" if total else ""),
            f"**{self.t('time')}**: {mins}m{secs:02d}s",
        ]
        weak = s.weakest()
        if weak:
            lines.append(f"### {self.t('weakest')}")
            lines += [f"- #{bank.questions[q].number or '-'} {bank.questions[q].question.get(lang)}" for q in weak]
        yield Header()
        yield Markdown("\n\n".join(lines), id="summary", classes="markdown")
        yield KeyBar()
