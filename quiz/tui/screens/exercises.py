"""Exercises: a list with status (not started, failing, passed), filterable by module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Header, Select

from quiz.tui.cells import width
from quiz.tui.plain import cell, plain
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
        options = [(plain(m.name.get(self.lang)), m.id) for m in bank.ordered_modules() if m.id in used]
        yield Header()
        yield Select(options, prompt=self.t("filter_module"), id="exercise-filter", value=self.module or Select.NULL)
        yield DataTable(id="exercise-table", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self.refresh_rows()
        self.query_one("#exercise-table").focus()
        if self.ctx.bank.exercises:
            self.app.grader_service.start()  # warm before the first check

    def on_screen_resume(self) -> None:
        self.refresh_rows()

    def on_lang_changed(self) -> None:
        self.refresh_rows()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.module = None if event.value is Select.NULL else str(event.value)
        self.refresh_rows()

    def refresh_rows(self) -> None:
        """The exercises in learning order (module, then difficulty), keeping the cursor on the same one."""
        from quiz.grader.triton_support import available, uses_kernels
        from quiz.session.exercises import exercise_path

        bank = self.ctx.bank
        no_triton = not available()
        status = self.ctx.store.exercise_status() if self.ctx.store is not None else {}
        table = self.query_one("#exercise-table", DataTable)
        keep = self._cursor_id(table)
        table.clear(columns=True)
        titles = [e.title.get(self.lang) for e in bank.exercises.values()] + [self.t("exercises")]
        modules = {m.id: m.name.get(self.lang) for m in bank.modules.values()}
        for label, cells in [
            (self.t("exercises"), min(max(map(width, titles)), 44)),
            ("", 12),
            (self.t("module"), 16),
            (self.t("difficulty"), 10),
            ("id", 26),
        ]:
            table.add_column(label, width=cells)
        for exercise_id in exercise_path(bank):
            ex = bank.exercises[exercise_id]
            if self.module and ex.module != self.module:
                continue
            state = status.get(ex.id, "not started")
            label = f"[{STATUS_STYLE[state]}]{self.t('status_' + state.replace(' ', '_'))}[/]"
            if no_triton and uses_kernels(ex.model_dump()):
                label = f"[yellow]{self.t('status_needs_triton')}[/]"  # `quiz check` says how to install it
            table.add_row(
                cell(ex.title.get(self.lang)),
                label,
                cell(modules.get(ex.module, ex.module)),
                "★" * ex.difficulty,
                ex.id,
                key=ex.id,
            )
        if keep is not None and keep in table.rows:
            table.move_cursor(row=table.get_row_index(keep))

    @staticmethod
    def _cursor_id(table: DataTable) -> str | None:
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.app.open_screen("exercise", exercise_id=event.row_key.value)
