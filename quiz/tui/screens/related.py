"""Jump from a question to a related question or one of its exercises."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class RelatedScreen(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss", "Close", id="related.close")]

    def __init__(self, question_id: str):
        super().__init__()
        self.question_id = question_id

    def targets(self) -> list[tuple[str, str, str]]:
        """(kind, id, label): related questions first, then the question's exercises."""
        bank, lang = self.app.ctx.bank, self.app.lang
        q = bank.questions[self.question_id]
        out = [
            ("question", r.id, f"#{r.number or '-'} {r.question.get(lang)}")
            for r in (bank.questions[i] for i in q.related if i in bank.questions)
        ]
        out += [("exercise", e.id, f"⚙ {e.title.get(lang)}") for e in bank.exercises_for(q.id)]
        return out

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.app.t("jump_related"), classes="title")
            yield OptionList(
                *[Option(Content(label), id=f"{kind}:{target}") for kind, target, label in self.targets()],
                id="related-list",
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        kind, target = str(event.option.id).split(":", 1)
        self.dismiss()
        key = "question_id" if kind == "question" else "exercise_id"
        self.app.open_screen(kind, **{key: target})
