"""Help: the screen's own keys first, then the app's; where data and settings live; fits 80x24."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from quiz.tui.plain import cell
from quiz.tui.widgets.keybar import describe


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close", id="help.close")]

    def compose(self) -> ComposeResult:
        t = self.app.t
        with Vertical(id="help-dialog"):
            yield Label(t("help"), classes="title")
            yield DataTable(id="help-table", cursor_type="row", show_cursor=False)
            yield Static(id="help-notes", classes="muted")

    def on_mount(self) -> None:
        from quiz import paths

        t = self.app.t
        table = self.query_one("#help-table", DataTable)
        table.add_columns(t("help_key"), t("help_action"), t("help_id"))
        for key, action, binding_id in self.rows():
            table.add_row(cell(key), cell(action), cell(binding_id))
        table.focus()
        self.query_one("#help-notes", Static).update(
            Content(
                "\n".join(
                    [
                        f"esc / ? / q: {t('close')}    {t('help_remap')}",
                        f"{t('help_data')}: {paths.data_dir()}",
                        f"{t('help_config')}: {paths.config_file()}",
                    ]
                )
            )
        )

    def rows(self) -> list[tuple[str, str, str]]:
        """(key, action, id): the screen's own bindings, then the app's (widgets' cursor keys are left out)."""
        app = self.app
        below = app.screen_stack[-2] if len(app.screen_stack) > 1 else app.screen
        own, shared = [], []
        seen: set[tuple[str, str]] = set()
        for key, active in below.active_bindings.items():
            b = active.binding
            if (b.action, key) in seen:
                continue
            seen.add((b.action, key))
            label = describe(b.description, app.lang) if b.description else b.action
            row = (app.get_key_display(b), label, b.id or "")
            if active.node is app:
                shared.append(row)
            elif b.id:
                own.append(row)
        return own + shared
