"""Text fitted by display width: a CJK character takes two terminal cells."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size


def width(text: str) -> int:
    return cell_len(text)


def fit(text: str, cells: int) -> str:
    """`text` cut with '…' or padded with spaces to exactly `cells` cells."""
    if cell_len(text) <= cells:
        return text + " " * (cells - cell_len(text))
    return set_cell_size(text, max(cells - 1, 0)) + "…"
