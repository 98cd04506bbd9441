"""A code editor whose Enter keeps the line's indentation (one level more after a colon)."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea


def next_indent(line_before_cursor: str, width: int = 4) -> str:
    """The indentation for the line after `line_before_cursor`."""
    stripped = line_before_cursor.lstrip(" \t")
    indent = line_before_cursor[: len(line_before_cursor) - len(stripped)]
    if stripped.rstrip().endswith(":"):
        indent += " " * width
    return indent


class CodeEditor(TextArea):
    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            start, end = self.selection
            row, col = min(start, end)
            before = self.document.get_line(row)[:col]
            self._replace_via_keyboard("\n" + next_indent(before, self.indent_width), start, end)
            return
        await super()._on_key(event)
