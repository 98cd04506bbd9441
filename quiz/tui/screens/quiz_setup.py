"""Quiz set-up: pick modules and a count, or "my weakest topics"; mock interviews add a clock per question."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Label, SelectionList, Switch

from quiz.tui.plain import plain
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar


class QuizSetupScreen(BaseScreen):
    BINDINGS = [Binding("ctrl+s", "start", "Start", id="quiz.start")]

    def __init__(self, mock: bool = False):
        super().__init__()
        self.mock = mock

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="settings-form"):
            yield Label(self.t("mock") if self.mock else self.t("quiz"), classes="title")
            yield Label(self.t("module"))
            yield SelectionList[str](
                *[(plain(m.name.get(self.lang)), m.id, False) for m in self.ctx.bank.populated_modules()],
                id="quiz-modules",
            )
            yield Label(self.t("count"))
            yield Input("5" if self.mock else "10", id="quiz-count", type="integer")
            with Horizontal(classes="rating-row"):
                yield Label(self.t("weakest_mode"))
                yield Switch(id="quiz-weakest")
                yield Label(self.t("mock"))
                yield Switch(value=self.mock, id="quiz-mock")
            yield Label(self.t("quiz_ratings_count"), id="quiz-ratings-note", classes="muted")
            yield Button(self.t("start"), id="quiz-start", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.sub_title = self.t("all_modules")
        self.query_one("#quiz-modules").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quiz-start":
            self.action_start()

    def action_start(self) -> None:
        from quiz.session.quiz import build_items
        from quiz.tui.screens.quiz_session import QuizSessionScreen

        modules = list(self.query_one("#quiz-modules", SelectionList).selected) or None
        raw = self.query_one("#quiz-count", Input).value or "10"
        count = max(1, min(int(raw) if raw.isdigit() else 10, 100))
        mock = self.query_one("#quiz-mock", Switch).value
        items = build_items(
            self.ctx.bank,
            modules,
            count,
            store=self.ctx.store,
            weakest=self.query_one("#quiz-weakest", Switch).value,
            mock=mock,
        )
        if not items:
            self.notify("0 " + self.t("questions").lower(), severity="warning")
            return
        self.app.switch_screen(QuizSessionScreen(items, mock=mock))
