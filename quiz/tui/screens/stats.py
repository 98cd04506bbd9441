"""Stats: today's figures, a review heatmap, dated charts, interval and answer breakdowns, a retention curve."""

from __future__ import annotations

from datetime import date, timedelta

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Header, Static

from quiz.tui.cells import fit
from quiz.tui.plain import markup
from quiz.tui.screens.base import BaseScreen
from quiz.tui.widgets.charts import (
    dated_columns,
    hbar,
    heatmap,
    labelled_bars,
    percent_columns,
)
from quiz.tui.widgets.keybar import KeyBar

RATING_KEYS = {1: "again", 2: "hard", 3: "good", 4: "easy"}


class StatsScreen(BaseScreen):
    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="stats-scroll"):
            yield Static(id="stats-body", classes="chart")
        yield KeyBar()

    def on_mount(self) -> None:
        self.draw()
        self.query_one("#stats-scroll").focus()

    def on_lang_changed(self) -> None:
        self.draw()

    def draw(self) -> None:
        body = self.query_one("#stats-body", Static)
        if self.ctx.services is None:
            body.update(
                markup("[red]$title[/red]\n$error", title=self.t("store_error"), error=self.ctx.store_error or "")
            )
            return
        from quiz.session.cards import content_cards
        from quiz.srs.breakdown import (
            interval_breakdown,
            rating_breakdown,
            weekly_retention,
        )
        from quiz.srs.clock import day_bounds
        from quiz.srs.stats import compute_stats

        s, t = self.ctx.services, self.t
        content = content_cards(self.ctx.bank)
        data = compute_stats(s.store, content, s.clock, s.limits)
        today = date.fromisoformat(data["reviews_by_day"][-1]["date"])
        day_start, _ = day_bounds(s.clock.now(), s.clock.tz, s.limits.day_start_hour)
        retention = data["retention_30d"]
        weekdays, months = t("weekdays").split(), t("months").split()
        fmt = (lambda d: f"{d.month}/{d.day}") if self.lang == "zh" else (lambda d: f"{months[d.month - 1]} {d.day}")
        states = " · ".join(f"{t('state_' + k)} {v}" for k, v in data["by_state"].items())
        parts: list[str | Content] = [
            (
                f"[b]{t('today')}[/b]  {t('due_today_cards')} [b]{data['due_today']}[/b] · {t('new_today_cards')} "
                f"[b]{data['new_left_today']}[/b] · {t('reviewed_today')} [b]{data['reviewed_today']}[/b] · "
                f"{t('reviews_total')} {data['reviews_total']}"
            ),
            f"[b]{t('retention')}[/b]  "
            + (
                f"{retention:.1%} ({data['retention_reviews_30d']} {t('reviews_word')})"
                if retention is not None
                else t("no_data")
            ),
            f"[dim]{states}[/dim]",
            f"\n[b]{t('heatmap')}[/b]",
            heatmap(data["heatmap"], today, weekdays, months),
            f"\n[b]{t('per_day')}[/b]",
            dated_columns([d["count"] for d in data["reviews_by_day"]], today - timedelta(days=29), fmt=fmt),
            f"\n[b]{t('forecast')}[/b]",
            dated_columns(data["forecast"], today, fmt=fmt),
            f"\n[b]{t('intervals')}[/b]",
            labelled_bars(interval_breakdown(s.store, {c for c, _ in content})),
            f"\n[b]{t('answer_buttons')}[/b]",
            labelled_bars(
                [(t(RATING_KEYS[r]), n) for r, n in rating_breakdown(s.store, day_start - timedelta(days=29)).items()],
                colour="yellow",
            ),
            f"\n[b]{t('retention_curve')}[/b]",
            percent_columns(
                weekly_retention(s.store, s.clock, s.limits.day_start_hour), t("weeks_ago_12"), t("this_week")
            ),
            f"\n[b]{t('mastery')}[/b]",
        ]
        for module in self.ctx.bank.populated_modules():
            m = data["by_module"].get(module.id)
            if m:
                parts.append(
                    markup(
                        "$name [green]$bar[/green] $count [dim]$seen[/dim]",
                        name=fit(module.name.get(self.lang), 24),
                        bar=hbar(m["mastery"], 16),
                        count=f"{m['mastered']}/{m['total']}",
                        seen=f"{t('seen')} {m['seen']}",
                    )
                )
        body.update(Content("\n").join(p if isinstance(p, Content) else Content.from_markup(p) for p in parts))
