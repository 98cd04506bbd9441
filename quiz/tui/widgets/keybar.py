"""A one-line footer of the active bindings; much lighter than a widget per key."""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static

from quiz.tui.cells import width
from quiz.tui.i18n import STRINGS, tr

ALIASES = {"run checks": "run_checks", "$editor": "editor", "previous": "prev"}


def describe(description: str, lang: str) -> str:
    """A binding's description in `lang` (descriptions are written in English)."""
    key = ALIASES.get(description.lower(), description.lower().replace(" ", "_"))
    return tr(key, lang) if key in STRINGS else description


def key_for(screen, binding_id: str, default: str) -> str:
    """The key shown for a binding id on `screen`, so a remapped key shows on buttons too."""
    for _node, binding, _enabled, _tooltip in screen.active_bindings.values():
        if binding.id == binding_id:
            return screen.app.get_key_display(binding)
    return default


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
        self.watch(self.app, "lang", self._changed, init=False)  # screens that redraw in place on F2
        self.call_after_refresh(self.show_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, _source) -> None:
        self.call_after_refresh(self.show_keys)

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_keys)

    def _label(self, description: str) -> str:
        return describe(description, self.app.lang)

    def show_keys(self) -> None:
        if not self.is_attached:
            return
        seen: set[str] = set()
        items = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen or not binding.description:
                continue
            seen.add(binding.action)
            items.append((self.app.get_key_display(binding), self._label(binding.description), enabled))
        items.append(("^p", tr("palette", self.app.lang), True))
        room = self.size.width or 10_000  # size is the content area: the padding is already left out
        parts: list[str] = []
        used = 0
        for i, (key, label, enabled) in enumerate(items):
            cells = width(key) + 1 + width(label) + (2 if parts else 0)
            last = i == len(items) - 1
            if used + cells + (0 if last else 3) > room:
                parts.append("[b]…[/]")  # more keys than fit: ? lists them all
                break
            used += cells
            style = "b $footer-key-foreground" if enabled else "dim"
            parts.append(f"[{style}]{escape(key)}[/] {escape(label)}")
        self.update("  ".join(parts))
