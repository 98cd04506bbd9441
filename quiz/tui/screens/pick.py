"""A small dialog to pick one of several items (for example, one of a question's exercises)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class PickScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen #pick { width: 70; height: auto; max-height: 20; border: round $primary; background: $surface; padding: 0 1; }
    PickScreen OptionList { height: auto; max-height: 14; }
    """
    BINDINGS = [Binding("escape", "dismiss_none", "Back")]

    def __init__(self, title: str, items: list[tuple[str, str]]):
        """`items`: (id, label) pairs; the dialog returns the picked id, or None."""
        super().__init__()
        self.title_text, self.items = title, items

    def compose(self) -> ComposeResult:
        from rich.text import Text

        with Vertical(id="pick"):
            yield Label(self.title_text, classes="title")
            yield OptionList(*[Option(Text(label), id=item_id) for item_id, label in self.items], id="pick-options")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
