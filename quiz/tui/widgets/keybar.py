"""A one-line footer of the active bindings; much lighter than a widget per key."""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static

from quiz.tui.i18n import STRINGS, tr

ALIASES = {"run checks": "run_checks", "$editor": "editor", "previous": "prev"}


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        padding: 0 1;
    }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self.call_after_refresh(self.show_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, _screen) -> None:
        self.call_after_refresh(self.show_keys)

    def _label(self, description: str) -> str:
        key = ALIASES.get(description.lower(), description.lower().replace(" ", "_"))
        return tr(key, self.app.lang) if key in STRINGS else description

    def show_keys(self) -> None:
        if not self.is_attached:
            return
        seen: set[str] = set()
        parts = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen or not binding.description:
                continue
            seen.add(binding.action)
            style = "b $footer-key-foreground" if enabled else "dim"
            parts.append(f"[{style}]{escape(self.app.get_key_display(binding))}[/] {escape(self._label(binding.description))}")
        parts.append("[b $footer-key-foreground]^p[/] palette")
        self.update("  ".join(parts))
