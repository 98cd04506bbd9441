"""The card browser: search by text, module, state or tag; a card's history and next due; suspend, bury, forget, undo."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Header, Input, Static

from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.widgets.keybar import KeyBar

RATING_KEYS = {1: "again", 2: "hard", 3: "good", 4: "easy"}


class CardsScreen(BaseScreen):
    DEFAULT_CSS = """
    CardsScreen #cards-search { margin: 0 1; }
    CardsScreen #cards-body { height: 1fr; }
    CardsScreen #cards-table { width: 1fr; }
    CardsScreen #cards-detail { width: 38; padding: 0 1; border-left: solid $primary; }
    """
    BINDINGS = [
        Binding("slash", "search", "Search", id="cards.search"),
        Binding("s", "toggle_suspend", "Suspend", id="cards.suspend"),
        Binding("b", "toggle_bury", "Bury", id="cards.bury"),
        Binding("f", "forget", "Forget", id="cards.forget"),
        Binding("u", "undo", "Undo", id="cards.undo"),
    ]

    def __init__(self, query: str = ""):
        super().__init__()
        self.query_text = query
        self.rows: list = []
        self.progress = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            self.query_text,
            placeholder="words  module:ID  state:new|learning|review|suspended|buried|leech  tag:T",
            id="cards-search",
        )
        with Horizontal(id="cards-body"):
            yield DataTable(id="cards-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="cards-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        self.sub_title = self.t("cards")
        if self.ctx.services is not None:
            from quiz.session.progress import Progress

            s = self.ctx.services
            self.progress = Progress(s.store, s.clock, s.scheduler, s.limits)
        self.refresh_rows()
        self.query_one("#cards-table").focus()

    def on_lang_changed(self) -> None:
        self.refresh_rows()

    @store_guard
    def refresh_rows(self) -> None:
        from quiz.session.browse import card_rows, parse_query, search

        table = self.query_one("#cards-table", DataTable)
        if self.ctx.services is None:
            self.query_one("#cards-detail", Static).update(f"[red]{self.t('store_error')}[/red]")
            return
        now = self.ctx.services.clock.now()
        cursor = table.cursor_row
        self.rows = search(card_rows(self.ctx.bank, self.ctx.store, self.lang), parse_query(self.query_text), now)
        table.clear(columns=True)
        for label, width in [("id", 18), (self.t("module"), 12), (self.t("state"), 14), (self.t("next_due"), 11)]:
            table.add_column(label, width=width)
        for row in self.rows:
            due = row.state.due.astimezone(self.ctx.services.clock.tz).strftime("%m-%d %H:%M") if row.state.due else "-"
            table.add_row(Text(row.card_id), Text(row.module), ",".join(row.status(now)), due, key=row.card_id)
        if self.rows:
            table.move_cursor(row=min(cursor, len(self.rows) - 1))
        self.show_detail()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self.refresh_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#cards-table").focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    @property
    def current(self):
        table = self.query_one("#cards-table", DataTable)
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row]

    @store_guard
    def show_detail(self) -> None:
        from rich.markup import escape

        row = self.current
        detail = self.query_one("#cards-detail", Static)
        if row is None:
            detail.update(f"0 {self.t('cards').lower()}")
            return
        s = self.ctx.store.card(row.card_id)
        tz = self.ctx.services.clock.tz
        when = lambda d: d.astimezone(tz).strftime("%Y-%m-%d %H:%M") if d else "-"
        lines = [
            f"[b]{escape(row.front)}[/b]",
            "",
            escape(row.back),
            "",
            f"{self.t('next_due')}: [b]{when(s.due)}[/b] · reps {s.reps} · lapses {s.lapses}",
        ]
        if s.buried_until:
            lines.append(f"{self.t('buried')}: {when(s.buried_until)}")
        lines += ["", f"[b]{self.t('history')}[/b]"]
        history = self.ctx.store.history(row.card_id)
        for h in history:
            from datetime import datetime

            at = when(datetime.fromisoformat(h["reviewed_at"]))
            undone = f" [dim]({self.t('undone').lower()})[/dim]" if h["undone_at"] else ""
            lines.append(f"{at}  {self.t(RATING_KEYS[h['rating']])}  → {h['interval_days'] or 0:.1f}d{undone}")
        if not history:
            lines.append(self.t("no_history"))
        detail.update("\n".join(lines))

    def action_search(self) -> None:
        self.query_one("#cards-search", Input).focus()

    @store_guard
    def _do(self, name: str) -> None:
        row = self.current
        if row is None or self.progress is None:
            return
        getattr(self.progress, name)(row.card_id)
        self.notify(f"{self.t('act_' + name)}: {row.card_id} · u: {self.t('undo')}", timeout=3)
        self.refresh_rows()

    def action_toggle_suspend(self) -> None:
        row = self.current
        if row is not None:
            self._do("unsuspend" if self.ctx.store.card(row.card_id).suspended else "suspend")

    def action_toggle_bury(self) -> None:
        row = self.current
        if row is not None:
            buried = self.ctx.store.card(row.card_id).buried_until
            self._do("unbury" if buried and buried > self.ctx.services.clock.now() else "bury")

    def action_forget(self) -> None:
        self._do("forget")

    @store_guard
    def action_undo(self) -> None:
        if self.progress is None:
            return
        action = self.progress.undo()
        if action is None:
            self.notify(self.t("nothing_to_undo"), timeout=3)
            return
        self.notify(f"{self.t('undone')}: {self.t('act_' + action.kind)} · {action.card_id}", timeout=4)
        self.refresh_rows()
