"""A module's questions as a list: number, title and progress; Enter opens one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Header, Static

from quiz.tui.cells import fit, width
from quiz.tui.plain import cell, plain
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar


class ModuleQuestionsScreen(BaseScreen):
    def __init__(self, module_id: str):
        super().__init__()
        self.module_id = module_id

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="module-title", classes="title")
        yield DataTable(id="module-questions", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self.fill()
        self.query_one("#module-questions").focus()

    def on_lang_changed(self) -> None:
        self.fill()

    def on_resize(self) -> None:
        self.fill()

    def fill(self) -> None:
        from quiz.session.cards import question_card_id
        from quiz.srs.cardstate import STATE_NAMES

        bank, lang = self.ctx.bank, self.lang
        module = bank.modules.get(self.module_id)
        questions = bank.ordered_questions(self.module_id)
        self.query_one("#module-title", Static).update(
            plain(
                f"{module.name.get(lang) if module else self.module_id} · {len(questions)} {self.t('questions_word')}"
            )
        )
        states = self.ctx.store.cards() if self.ctx.store is not None else {}
        table = self.query_one("#module-questions", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        status_cells = max(
            width(self.t(k)) for k in ("state_new", "state_learning", "state_review", "state_relearning")
        )
        title_cells = max(20, self.size.width - 4 - status_cells - 2 * 3 - 2)
        table.add_column("#", width=4)
        table.add_column(self.t("question_col"), width=title_cells)
        table.add_column(self.t("status_col"), width=status_cells)
        for q in questions:
            state = states.get(question_card_id(q.id))
            name = "state_" + (STATE_NAMES[state.state] if state is not None else "new")
            table.add_row(
                str(q.number or "-"), cell(fit(q.question.get(lang), title_cells).rstrip()), self.t(name), key=q.id
            )
        if row:
            table.move_cursor(row=min(row, table.row_count - 1))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.app.open_screen("question", question_id=event.row_key.value)
