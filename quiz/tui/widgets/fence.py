"""Code fences highlight by the first word of their info string, so a `python runnable` fence (a snippet
the test suite runs) shows as Python."""

from __future__ import annotations

from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownFence


class Fence(MarkdownFence):
    def __init__(self, markdown, token, code: str) -> None:
        words = (token.info or "").split()
        token.info = words[0] if words else ""
        super().__init__(markdown, token, code)


def install() -> None:
    Markdown.BLOCKS = {**Markdown.BLOCKS, "fence": Fence}
