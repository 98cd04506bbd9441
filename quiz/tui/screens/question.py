"""A question: reveal the answer, key and memory points, follow-ups, related questions and exercises."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Markdown, Static

from quiz.content.dunders import escape_dunders
from quiz.tui.plain import plain
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar


def bullet(items: list[str]) -> str:
    return "\n".join(f"- {i}" for i in items)


class QuestionScreen(BaseScreen):
    BINDINGS = [
        Binding("space", "reveal", "Reveal", id="question.reveal"),
        Binding("n", "step(1)", "Next", id="question.next"),
        Binding("p", "step(-1)", "Previous", id="question.prev"),
        Binding("x", "exercise", "Exercise", id="question.exercise"),
        Binding("g", "related", "Related", id="question.related"),
    ]

    def __init__(self, question_id: str):
        super().__init__()
        self.question_id = question_id
        self.revealed = False

    @property
    def question(self):
        return self.ctx.bank.questions[self.question_id]

    def compose(self) -> ComposeResult:
        q, lang = self.question, self.lang
        module = self.ctx.bank.modules.get(q.module)
        yield Header()
        with VerticalScroll(id="question-scroll"):
            where = [f"#{q.number}" if q.number else "", module.name.get(lang) if module else q.module, q.id]
            yield Static(plain(" · ".join(p for p in where if p)), classes="muted title")
            yield Markdown(escape_dunders(f"## {q.question.get(lang)}"), classes="markdown")
            yield Static(
                self.t("space_reveal"), id="reveal-hint", classes="muted" + (" hidden" if self.revealed else "")
            )
            yield Markdown(
                escape_dunders(self._body()), id="answer", classes="markdown" + ("" if self.revealed else " hidden")
            )
        yield KeyBar()

    def _body(self) -> str:
        q, lang, bank = self.question, self.lang, self.ctx.bank
        parts = [f"### {self.t('answer')}", q.answer.get(lang)]
        if q.key_points.get(lang):
            parts += [f"### {self.t('key_points')}", bullet(q.key_points.get(lang))]
        if q.memory_points.get(lang):
            parts += [f"### {self.t('memory_points')}", bullet(q.memory_points.get(lang))]
        if q.follow_ups:
            parts.append(f"### {self.t('follow_ups')}")
            parts += [f"**{f.question.get(lang)}**\n\n{f.answer.get(lang)}\n" for f in q.follow_ups]
        related = [bank.questions[r] for r in q.related if r in bank.questions]
        if related:
            parts += [
                f"### {self.t('related')}",
                bullet([f"#{r.number or '-'} {r.question.get(lang)}" for r in related]),
                f"*g: {self.t('jump_related')}*",
            ]
        exercises = bank.exercises_for(q.id)
        if exercises:
            parts += [
                f"### {self.t('linked_exercises')}",
                bullet([f"{e.title.get(lang)} (`{e.id}`) — x" for e in exercises]),
            ]
        return "\n\n".join(parts)

    def action_reveal(self) -> None:
        self.revealed = not self.revealed
        self.query_one("#answer").set_class(not self.revealed, "hidden")
        self.query_one("#reveal-hint").set_class(self.revealed, "hidden")

    async def action_step(self, delta: int) -> None:
        ordered = self.ctx.bank.ordered_questions(self.question.module)
        ids = [q.id for q in ordered]
        i = ids.index(self.question_id) + delta
        if 0 <= i < len(ids):
            self.question_id, self.revealed = ids[i], False
            await self.recompose()

    def action_related(self) -> None:
        """Pick a related question or exercise to jump to."""
        q = self.question
        if q.related or self.ctx.bank.exercises_for(q.id):
            self.app.open_screen("related", question_id=q.id)
        else:
            self.notify("—", title=self.t("related"))

    def action_exercise(self) -> None:
        exercises = self.ctx.bank.exercises_for(self.question_id)
        if len(exercises) > 1:
            from quiz.tui.screens.pick import PickScreen

            def picked(exercise_id: str | None) -> None:
                if exercise_id:
                    self.app.open_screen("exercise", exercise_id=exercise_id)

            items = [(e.id, f"{e.title.get(self.lang)}  ({e.id})") for e in exercises]
            self.app.push_screen(PickScreen(self.t("pick_exercise"), items), picked)
        elif exercises:
            self.app.open_screen("exercise", exercise_id=exercises[0].id)
        else:
            self.notify("—", title=self.t("linked_exercises"))
