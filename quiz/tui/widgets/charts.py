"""Terminal charts as Rich markup: a review heatmap, vertical bars, horizontal bars."""

from __future__ import annotations

SHADES = " ░▒▓█"
BARS = " ▁▂▃▄▅▆▇█"


def heatmap(counts: list[int], weeks: int = 26) -> str:
    """Seven rows (days) by `weeks` columns; the last value is today."""
    cells = counts[-weeks * 7:]
    cells = [0] * (weeks * 7 - len(cells)) + cells
    peak = max(cells) or 1
    rows = []
    for day in range(7):
        row = []
        for week in range(weeks):
            value = cells[week * 7 + day]
            level = 0 if value == 0 else 1 + min(3, int(3 * value / peak))
            row.append(f"[green]{SHADES[level]}[/green]" if value else "[dim]·[/dim]")
        rows.append("".join(row))
    return "\n".join(rows) + f"\n[dim]{weeks} weeks · max {max(cells)}/day[/dim]"


def columns(values: list[int], height: int = 6) -> str:
    """Vertical bars, one column per value, `height` rows high."""
    peak = max(values) or 1
    lines = []
    for level in range(height, 0, -1):
        line = []
        for v in values:
            filled = v * height / peak
            if filled >= level:
                line.append("█")
            elif filled > level - 1:
                line.append(BARS[max(1, int((filled - level + 1) * 8))])
            else:
                line.append(" ")
        lines.append("".join(line))
    return "\n".join(lines) + f"\n[dim]max {max(values) if values else 0}[/dim]"


def hbar(fraction: float, width: int = 20) -> str:
    fraction = max(0.0, min(1.0, fraction))
    full = int(fraction * width)
    part = int((fraction * width - full) * 8)
    return "█" * full + (BARS[part] if part and full < width else "") + " " * (width - full - (1 if part and full < width else 0))
