"""Home: the modules with progress, today's counts, and a key for every mode."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import DataTable, Header, Static

from quiz.tui.cells import fit, width
from quiz.tui.plain import cell
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar


def module_progress(ctx) -> tuple[dict, dict]:
    """(per-module figures, today's figures); zeros when the store is unavailable."""
    from quiz.session.cards import content_cards
    from quiz.srs.stats import compute_stats

    content = content_cards(ctx.bank)
    if ctx.services is None:
        empty = {"due_today": 0, "new_left_today": 0, "reviewed_today": 0, "later_today": 0}
        by_module: dict = {}
        for _, module in content:
            m = by_module.setdefault(module, {"total": 0, "seen": 0, "mastered": 0, "due": 0})
            m["total"] += 1
        return by_module, empty
    from quiz.srs.breakdown import later_today

    s = ctx.services
    stats = compute_stats(s.store, content, s.clock, s.limits, days=1, forecast_days=1, heatmap_days=1)
    stats["later_today"] = later_today(s.store, {c for c, _ in content}, s.clock, s.limits.day_start_hour)
    return stats["by_module"], stats


class HomeScreen(BaseScreen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", show=False),
        Binding("r", "open('review')", "Review", id="home.review"),
        Binding("R", "review_module", "Review module", id="home.review_module", show=False),
        Binding("z", "open('quiz')", "Quiz", id="home.quiz"),
        Binding("m", "mock", "Mock", id="home.mock"),
        Binding("e", "open('exercises')", "Exercises", id="home.exercises"),
        Binding("t", "open('stats')", "Stats", id="home.stats"),
        Binding("c", "open('cards')", "Cards", id="home.cards"),
        Binding("comma", "open('settings')", "Settings", id="home.settings"),
        Binding("enter", "browse", "Browse", id="home.browse", show=False),
        Binding("b", "browse", "Browse", id="home.browse_key"),
        Binding("q", "app.quit", "Quit", id="home.quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="today")
        yield DataTable(id="modules", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_screen_resume(self) -> None:
        self.refresh_data()

    def on_lang_changed(self) -> None:
        self.refresh_data()

    def on_resize(self) -> None:
        self.refresh_data()

    def refresh_data(self) -> None:
        by_module, today = module_progress(self.ctx)
        bank = self.ctx.bank
        modules = bank.populated_modules()
        cards = sum(m["total"] for m in by_module.values())
        hidden = len(bank.modules) - len(modules)
        self.query_one("#today", Static).update(
            Content.from_markup(
                "[b]$today[/b]  $due_label [b]$due[/b]$later   $new_label [b]$new[/b]\n"
                "[dim]$questions · $cards · $exercises$hidden[/dim]",
                today=self.t("today"),
                due_label=self.t("due_today_cards"),
                due=str(today["due_today"]),
                new_label=self.t("new_today_cards"),
                new=str(today["new_left_today"]),
                later=f" (+{today['later_today']} {self.t('later_today')})" if today.get("later_today") else "",
                questions=f"{len(bank.questions)} {self.t('questions_word')}",
                cards=f"{cards} {self.t('cards_word')}",
                exercises=f"{len(bank.exercises)} {self.t('exercises_word')}",
                hidden=f" · {hidden} {self.t('modules_hidden')}" if hidden else "",
            )
            + (Content.styled(f"   {self.t('store_error')}", "red") if self.ctx.services is None else Content(""))
        )
        table = self.query_one("#modules", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        names = [m.name.get(self.lang) for m in modules] + [self.t("module")]
        columns = [
            ("#", 2),
            (self.t("questions"), 4),
            (self.t("cards_seen"), 7),
            (self.t("mastered"), 4),
            (self.t("due_today_col"), 4),
        ]
        wide = self.size.width >= 100
        if wide:
            columns.append((self.t("progress"), 10))
        widths = [max(cells, width(label)) for label, cells in columns]
        room = self.size.width - sum(widths) - 2 * (len(widths) + 1) - 2  # cell padding and the scrollbar
        name_cells = max(12, min(max(map(width, names)), room))
        columns.insert(1, (self.t("module"), name_cells))
        widths.insert(1, name_cells)
        for (label, _), cells in zip(columns, widths):
            table.add_column(label, width=cells)
        for module in modules:
            m = by_module.get(module.id, {"total": 0, "seen": 0, "mastered": 0, "due": 0})
            count = len(bank.ordered_questions(module.id))
            total = max(m["total"], 1)
            bar = "█" * round(10 * m["mastered"] / total) + "▒" * (
                round(10 * m["seen"] / total) - round(10 * m["mastered"] / total)
            )
            row = [
                str(module.number),
                cell(fit(module.name.get(self.lang), name_cells).rstrip()),
                str(count),
                f"{m['seen']}/{m['total']}",
                str(m["mastered"]),
                str(m["due"]),
            ] + ([bar.ljust(10, "·")] if wide else [])
            table.add_row(*row, key=module.id)
        if cursor:
            table.move_cursor(row=min(cursor, table.row_count - 1))

    def action_open(self, name: str) -> None:
        self.app.open_screen(name)

    def action_review_module(self) -> None:
        """Review only the module under the cursor."""
        table = self.query_one("#modules", DataTable)
        if table.row_count:
            module_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self.app.open_screen("review", modules=[module_id])

    def action_mock(self) -> None:
        self.app.open_screen("quiz", mock=True)

    def action_browse(self) -> None:
        table = self.query_one("#modules", DataTable)
        if table.row_count == 0:
            return
        module_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        self.app.open_screen("module", module_id=module_id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_browse()
