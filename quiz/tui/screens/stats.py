"""Stats: review heatmap, due forecast, reviews per day, true retention and per-module mastery, as charts."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Header, Static

from quiz.tui.plain import markup, plain
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.keybar import KeyBar
from quiz.tui.widgets.charts import columns, hbar, heatmap


class StatsScreen(BaseScreen):
    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="stats-body", classes="chart")
        yield KeyBar()

    def on_mount(self) -> None:
        self.draw()

    def on_lang_changed(self) -> None:
        self.draw()

    def draw(self) -> None:
        body = self.query_one("#stats-body", Static)
        if self.ctx.services is None:
            body.update(markup("[red]$title[/red]\n$error", title=self.t("store_error"), error=self.ctx.store_error))
            return
        from quiz.session.cards import content_cards
        from quiz.srs.stats import compute_stats

        s = self.ctx.services
        data = compute_stats(s.store, content_cards(self.ctx.bank), s.clock, s.limits)
        retention = data["retention_30d"]
        per_day = [d["count"] for d in data["reviews_by_day"]]
        parts = [
            f"[b]{self.t('today')}[/b]: {self.t('due')} {data['due_today']} · {self.t('new')} {data['new_left_today']} · "
            f"✓ {data['reviewed_today']} · Σ {data['reviews_total']}",
            f"[b]{self.t('retention')}[/b]: " + (f"{retention:.1%} ({data['retention_reviews_30d']})" if retention is not None else self.t("no_data")),
            "  ".join(f"{k} {v}" for k, v in data["by_state"].items()),
            f"\n[b]{self.t('heatmap')}[/b]", heatmap(data["heatmap"]),
            f"\n[b]{self.t('forecast')}[/b]", columns(data["forecast"]),
            f"\n[b]{self.t('per_day')}[/b]", columns(per_day),
            f"\n[b]{self.t('mastery')}[/b]",
        ]
        for module in self.ctx.bank.ordered_modules():
            m = data["by_module"].get(module.id)
            if m:
                name = module.name.get(self.lang)[:24]
                parts.append(plain(f"{name:<24} {hbar(m['mastery'], 20)} {m['mastered']}/{m['total']}  {self.t('seen')} {m['seen']}"))
        body.update(Content("\n").join(Content.from_markup(p) for p in parts))
