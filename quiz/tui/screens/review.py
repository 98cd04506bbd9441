"""Review: due cards in FSRS order; space reveals, 1-4 rate (each button shows its interval), u undo, s suspend."""

from __future__ import annotations

from datetime import datetime

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Markdown, Static

from quiz.content.dunders import escape_dunders
from quiz.srs.scheduler import format_interval
from quiz.tui.plain import plain
from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.widgets.keybar import KeyBar, key_for

RATING_KEYS = {1: "again", 2: "hard", 3: "good", 4: "easy"}


class ReviewScreen(BaseScreen):
    BINDINGS = [
        Binding("space", "reveal", "Reveal", id="review.reveal"),
        Binding("1", "rate(1)", "Again", id="review.again", show=False),
        Binding("2", "rate(2)", "Hard", id="review.hard", show=False),
        Binding("3", "rate(3)", "Good", id="review.good", show=False),
        Binding("4", "rate(4)", "Easy", id="review.easy", show=False),
        Binding("u", "undo", "Undo", id="review.undo"),
        Binding("s", "suspend", "Suspend", id="review.suspend"),
        Binding("b", "bury", "Bury", id="review.bury"),
    ]

    def __init__(self, modules: list[str] | None = None):
        super().__init__()
        self.modules = modules
        self.session = None
        self.current = None
        self.revealed = False
        self.shown_at = time.monotonic()
        # (learning cards later today, the first one's due time, due tomorrow)
        self.done_info: tuple[int, datetime | None, int] | None = None
        self.ticks = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="review-status", classes="muted")
            yield Markdown(id="card-front")
            yield Markdown(id="card-back", classes="hidden")
        with Horizontal(classes="rating-row hidden", id="ratings"):
            for r, key in RATING_KEYS.items():
                yield Button(f"{r} {self.t(key)}", id=f"rate-{r}", variant="error" if r == 1 else "primary")
        yield KeyBar()

    def on_mount(self) -> None:
        if self.ctx.services is None:
            self.query_one("#card-front", Markdown).update(f"**{self.t('store_error')}**\n\n{self.ctx.store_error}")
            return
        from quiz.session.review import ReviewSession

        s = self.ctx.services
        self.session = ReviewSession(
            s.store,
            self.ctx.bank,
            s.clock,
            s.scheduler,
            s.limits,
            lang=self.lang,
            modules=self.modules,
            interleaved=self.ctx.settings.interleave_modules,
        )
        self.show_next()
        self.countdown = self.set_interval(1, self.tick)

    async def apply_lang(self) -> None:
        if self.session is not None:
            self.session.lang = self.lang
        for r, key in RATING_KEYS.items():
            self.query_one(f"#rate-{r}", Button).label = f"{r} {self.t(key)}"
        self.show_next(keep_reveal=True)

    @store_guard
    def show_next(self, keep_reveal: bool = False) -> None:
        if self.session is None:
            return
        item = self.session.next_card()
        if item is None:  # learning cards may have come due since the queue was built
            self.session.refresh()
            item = self.session.next_card()
        q = self.session.queue
        self.sub_title = f"{len(q.due)} {self.t('due')} · {len(q.new)} {self.t('new')} · {self.session.reviewed} ✓"
        front = self.query_one("#card-front", Markdown)
        back = self.query_one("#card-back", Markdown)
        if item is None:
            self.current = None
            front.update(self._done_text())
            back.add_class("hidden")
            self.query_one("#ratings").add_class("hidden")
            self.query_one("#review-status", Static).update("")
            return
        state, view = item
        if not keep_reveal or self.current is None or self.current[0].card_id != state.card_id:
            self.revealed = False
            self.shown_at = time.monotonic()
        self.current = (state, view)
        self.query_one("#review-status", Static).update(plain(self._status(state, view)))
        front.update(f"## {escape_dunders(view.front)}")
        back.update(escape_dunders(view.back))
        preview = self.session.preview(state)
        for r, key in RATING_KEYS.items():
            shown = key_for(self, f"review.{key}", str(r))
            self.query_one(f"#rate-{r}", Button).label = f"{shown} {self.t(key)}  {format_interval(preview[r])}"
        self._set_revealed(self.revealed)

    def _status(self, state, view) -> str:
        """'#1 · PyTorch Internals · flashcard · new': where the card comes from, in words."""
        from quiz.session.cards import parse_card_id

        question_id, card = parse_card_id(state.card_id)
        q = self.ctx.bank.questions.get(question_id)
        module = self.ctx.bank.modules.get(q.module) if q else None
        parts = [
            f"#{q.number}" if q and q.number else "",
            module.name.get(self.lang) if module else view.module,
            self.t("kind_flashcard") if card else self.t("kind_question"),
            self.t("state_new") if state.is_new else self.t("state_due"),
        ]
        if state.leech:
            parts.append("⚠ " + self.t("leech"))
        return " · ".join(p for p in parts if p)

    def _done_text(self) -> str:
        """What the screen says when nothing is due now; the figures are kept for the countdown."""
        later, when = self.session.learning_later_today()
        from quiz.session.cards import content_cards
        from quiz.srs.stats import compute_stats

        s = self.ctx.services
        stats = compute_stats(
            s.store,
            content_cards(self.ctx.bank, self.modules),
            s.clock,
            s.limits,
            days=1,
            forecast_days=2,
            heatmap_days=1,
        )
        self.done_info = (later, when, stats["forecast"][1])
        return self._render_done()

    def _render_done(self) -> str:
        assert self.done_info is not None
        later, when, tomorrow = self.done_info
        if later and when is not None:
            wait = max(int((when - self.ctx.services.clock.now()).total_seconds()), 0)
            lines = [
                f"## {self.t('come_back_in')} {wait // 60}:{wait % 60:02d}",
                self.t("learning_later").format(n=later),
            ]
        else:
            lines = [f"## {self.t('review_done')}"]
        lines.append(f"{self.session.reviewed} ✓ · {self.t('tomorrow')}: **{tomorrow}**")
        return "\n\n".join(lines)

    def tick(self) -> None:
        """While nothing is due: count down to the next learning card, and show it once it is due."""
        if self.session is None or self.current is not None or self.done_info is None:
            return
        self.ticks += 1
        _, when, _ = self.done_info
        if (when is not None and when <= self.ctx.services.clock.now()) or self.ticks % 60 == 0:
            self.show_next()  # reads the store again: once a card is due, and once a minute (a new study day)
            if self.current is not None:
                self.notify(self.t("cards_due_now"), timeout=3)
        elif when is not None:
            self.query_one("#card-front", Markdown).update(self._render_done())

    def _set_revealed(self, revealed: bool) -> None:
        self.revealed = revealed
        self.query_one("#card-back").set_class(not revealed, "hidden")
        self.query_one("#ratings").set_class(not revealed, "hidden")

    def action_reveal(self) -> None:
        if self.current is not None:
            self._set_revealed(True)

    @store_guard
    def action_rate(self, rating: int) -> None:
        if self.current is None or not self.revealed:
            return
        state, _ = self.current
        self.session.rate(state, rating, int((time.monotonic() - self.shown_at) * 1000))
        self.show_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("rate-"):
            self.action_rate(int(event.button.id.split("-")[1]))

    @store_guard
    def action_undo(self) -> None:
        if self.session is None:
            return
        action = self.session.undo()
        if action is None:
            self.notify(self.t("nothing_to_undo"), timeout=3)
            return
        what = self.t("act_" + action.kind)
        if action.rating:
            what += f" {self.t(RATING_KEYS[action.rating])}"
        self.notify(f"{self.t('undone')}: {what} · {action.card_id}", timeout=4, markup=False)
        self.show_next()

    @store_guard
    def action_suspend(self) -> None:
        if self.current is not None:
            self.session.suspend(self.current[0])
            self.notify(f"{self.t('suspend')}: {self._status(*self.current)} · u: {self.t('undo')}", markup=False)
            self.show_next()

    @store_guard
    def action_bury(self) -> None:
        if self.current is not None:
            self.session.bury(self.current[0])
            self.notify(f"{self.t('buried')}: {self._status(*self.current)} · u: {self.t('undo')}", markup=False)
            self.show_next()
