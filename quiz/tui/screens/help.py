"""Help: every binding of the screen underneath and of the app, with its key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from quiz.tui.plain import cell


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.app.t("help"), classes="title")
            yield DataTable(id="help-table", cursor_type="row", show_cursor=False)
            yield Label("ctrl+p: palette · F2: 中/EN · ctrl+q: quit · config.toml [keys] remaps binding ids", classes="muted")

    def on_mount(self) -> None:
        table = self.query_one("#help-table", DataTable)
        table.add_columns("key", "action", "id")
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else self.app.screen
        seen = set()
        for key, active in below.active_bindings.items():
            b = active.binding
            if (b.action, key) in seen:
                continue
            seen.add((b.action, key))
            table.add_row(cell(self.app.get_key_display(b)), cell(b.description or b.action), cell(b.id or ""))
