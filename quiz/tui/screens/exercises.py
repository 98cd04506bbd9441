"""Exercises: a list with status (not started, failing, passed), filterable by module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Header, Select

from quiz.tui.cells import width
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar

STATUS_STYLE = {"passed": "green", "failing": "red", "not started": "dim"}


class ExercisesScreen(BaseScreen):
    def __init__(self, module: str | None = None):
        super().__init__()
        self.module = module

    def compose(self) -> ComposeResult:
        bank = self.ctx.bank
        used = {e.module for e in bank.exercises.values()}
        options = [(m.name.get(self.lang), m.id) for m in bank.ordered_modules() if m.id in used]
        yield Header()
        yield Select(options, prompt=self.t("filter_module"), id="exercise-filter", value=self.module or Select.NULL)
        yield DataTable(id="exercise-table", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self.refresh_rows()
        self.query_one("#exercise-table").focus()

    def on_screen_resume(self) -> None:
        self.refresh_rows()

    def on_lang_changed(self) -> None:
        self.refresh_rows()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.module = None if event.value is Select.NULL else str(event.value)
        self.refresh_rows()

    def refresh_rows(self) -> None:
        bank = self.ctx.bank
        status = self.ctx.store.exercise_status() if self.ctx.store is not None else {}
        table = self.query_one("#exercise-table", DataTable)
        table.clear(columns=True)
        titles = [e.title.get(self.lang) for e in bank.exercises.values()] + [self.t("exercises")]
        for label, cells in [(self.t("exercises"), min(max(map(width, titles)), 52)), ("", 12), ("id", 28)]:
            table.add_column(label, width=cells)
        order = {m.id: m.number for m in bank.modules.values()}
        for ex in sorted(bank.exercises.values(), key=lambda e: (order.get(e.module, 999), e.id)):
            if self.module and ex.module != self.module:
                continue
            state = status.get(ex.id, "not started")
            label = self.t("status_" + state.replace(" ", "_"))
            table.add_row(ex.title.get(self.lang), f"[{STATUS_STYLE[state]}]{label}[/]", ex.id, key=ex.id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.app.open_screen("exercise", exercise_id=event.row_key.value)
