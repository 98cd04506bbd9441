"""Terminal charts as Rich markup: a weekday-by-week heatmap, dated column charts, labelled bars."""

from __future__ import annotations

from datetime import date, timedelta

from quiz.tui.cells import fit, width

SHADES = " ░▒▓█"
BARS = " ▁▂▃▄▅▆▇█"


def heatmap(counts: list[int], today: date, weekdays: list[str], months: list[str], weeks: int = 26) -> str:
    """Seven rows (Monday first) by `weeks` columns ending with today's week; month names above, weekdays left."""
    by_day = {today - timedelta(days=i): v for i, v in enumerate(reversed(counts))}
    first = today - timedelta(days=today.weekday() + 7 * (weeks - 1))  # the Monday of the first column
    peak = max(counts, default=0) or 1
    label_cells = max(width(w) for w in weekdays) + 1
    top = [" "] * weeks
    last_month = None
    for week in range(weeks):
        month = (first + timedelta(days=7 * week)).month
        if month != last_month:
            name = months[month - 1]
            if week + width(name) <= weeks and all(c == " " for c in top[week : week + width(name)]):
                top[week] = name
                for k in range(1, width(name)):
                    top[week + k] = ""
            last_month = month
    lines = [" " * label_cells + "".join(top)]
    for day in range(7):
        row = []
        for week in range(weeks):
            when = first + timedelta(days=7 * week + day)
            if when > today:
                row.append(" ")
                continue
            value = by_day.get(when, 0)
            level = 0 if value == 0 else 1 + min(3, int(3 * value / peak))
            row.append(f"[green]{SHADES[level]}[/green]" if value else "[dim]·[/dim]")
        label = weekdays[day] if day % 2 == 0 else ""
        lines.append(fit(label, label_cells) + "".join(row))
    return "\n".join(lines)


def dated_columns(values: list[int], first: date, height: int = 5, step: int = 1, fmt=None) -> str:
    """Vertical bars, one column per day from `first`, with the peak on a left axis and dates below."""
    fmt = fmt or (lambda d: d.strftime("%m-%d"))
    peak = max(values, default=0)
    axis = max(len(str(peak)), 1)
    lines = []
    for level in range(height, 0, -1):
        cells = []
        for v in values:
            filled = v * height / (peak or 1)
            if filled >= level:
                cells.append("█")
            elif filled > level - 1 and v:
                cells.append(BARS[max(1, int((filled - level + 1) * 8))])
            else:
                cells.append(" ")
        tick = str(peak) if level == height else ""
        lines.append(f"[dim]{tick:>{axis}}┤[/dim][cyan]{''.join(cells)}[/cyan]")
    n = len(values)
    ruler = [" "] * n
    labels = [(0, fmt(first))]
    if n > 1:
        labels.append((n - 1, fmt(first + timedelta(days=(n - 1) * step))))
    if n >= 24:
        labels.insert(1, (n // 2, fmt(first + timedelta(days=(n // 2) * step))))
    text = [" "] * (n + 8)
    for pos, label in labels:
        start = max(0, min(pos - width(label) // 2, n + 8 - width(label))) if pos else 0
        if pos == n - 1:
            start = max(0, n - width(label))
        for k, ch in enumerate(label):
            text[start + k] = ch
        ruler[pos] = "┴"
    lines.append(f"[dim]{'0':>{axis}}└{''.join(ruler)}[/dim]")
    lines.append(f"[dim]{' ' * (axis + 1)}{''.join(text).rstrip()}[/dim]")
    return "\n".join(lines)


def hbar(fraction: float, cells: int = 20) -> str:
    fraction = max(0.0, min(1.0, fraction))
    full = int(fraction * cells)
    part = int((fraction * cells - full) * 8)
    return (
        "█" * full
        + (BARS[part] if part and full < cells else "")
        + " " * (cells - full - (1 if part and full < cells else 0))
    )


def labelled_bars(
    rows: list[tuple[str, int]], bar_cells: int = 24, label_cells: int | None = None, colour: str = "cyan"
) -> str:
    """One line per row: label, a bar scaled to the largest value, the count and its share."""
    total = sum(v for _, v in rows)
    peak = max((v for _, v in rows), default=0) or 1
    label_cells = label_cells or max((width(label) for label, _ in rows), default=1)
    out = []
    for label, value in rows:
        share = f"{value / total:>4.0%}" if total else "   -"
        out.append(
            f"{fit(label, label_cells)} [{colour}]{hbar(value / peak, bar_cells)}[/{colour}] {value:>4} [dim]{share}[/dim]"
        )
    return "\n".join(out)


def percent_columns(values: list[float | None], left: str, right: str, height: int = 5) -> str:
    """Columns for fractions in [0, 1] on a 0-100% axis; a gap where a value is missing."""
    lines = []
    for level in range(height, 0, -1):
        cells = []
        for v in values:
            if v is None:
                cells.append("   ")
                continue
            filled = v * height
            cells.append(
                "██"
                if filled >= level
                else (BARS[max(1, int((filled - level + 1) * 8))] * 2 if filled > level - 1 else "  ")
            )
            cells.append(" ")
        tick = "100%" if level == height else "    "
        lines.append(f"[dim]{tick}┤[/dim][green]{''.join(cells)}[/green]")
    lines.append("[dim]  0%└" + "───" * len(values) + "[/dim]")
    gap = max(1, 3 * len(values) - width(left) - width(right))
    lines.append(f"[dim]     {left}{' ' * gap}{right}[/dim]")
    return "\n".join(lines)
