"""A quiz session: type an answer, reveal, see which keywords it covered, rate 1-4; choices graded at once."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Markdown, OptionList, Static, TextArea

from quiz.session.quiz import QuizItem, QuizOutcome, QuizSummary, choice_correct, keyword_coverage
from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.widgets.keybar import KeyBar

MOCK_SECONDS = 120


class QuizSessionScreen(BaseScreen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", priority=True),
        Binding("ctrl+r", "reveal", "Reveal", id="quiz.reveal", priority=True),
        Binding("1", "rate(1)", "Again", id="quiz.again", show=False),
        Binding("2", "rate(2)", "Hard", id="quiz.hard", show=False),
        Binding("3", "rate(3)", "Good", id="quiz.good", show=False),
        Binding("4", "rate(4)", "Easy", id="quiz.easy", show=False),
        Binding("n", "next", "Next", id="quiz.next"),
    ]

    def __init__(self, items: list[QuizItem], mock: bool = False):
        super().__init__()
        self.items, self.mock = items, mock
        self.index = 0
        self.summary = QuizSummary()
        self.started = time.monotonic()
        self.item_started = time.monotonic()
        self.revealed = False
        self.answered = False
        self.picked: set[int] = set()  # options marked so far on a select-all item
        self.timer = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="timer", classes="" if self.mock else "hidden")
        with VerticalScroll():
            yield Static(id="quiz-progress", classes="muted")
            yield Markdown(id="quiz-question", classes="markdown")
            yield TextArea(id="answer-input")
            yield OptionList(id="quiz-options")
            yield Markdown(id="quiz-feedback", classes="markdown hidden")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_item()
        if self.mock:
            self.timer = self.set_interval(1, self.tick)

    async def apply_lang(self) -> None:
        self.show_item(keep=True)

    @property
    def item(self) -> QuizItem:
        return self.items[self.index]

    def show_item(self, keep: bool = False) -> None:
        item, lang = self.item, self.lang
        q = self.ctx.bank.questions[item.question_id]
        if not keep:
            self.revealed = self.answered = False
            self.picked = set()
            self.item_started = time.monotonic()
            area = self.query_one("#answer-input", TextArea)
            area.text, area.read_only = "", False
        self.query_one("#quiz-progress", Static).update(
            f"{self.index + 1}/{len(self.items)} · {q.module} · {q.id}   "
            + (self.t("rate_prompt") if item.kind == "question" else ""))
        area = self.query_one("#answer-input", TextArea)
        options = self.query_one("#quiz-options", OptionList)
        feedback = self.query_one("#quiz-feedback", Markdown)
        if item.kind == "question":
            self.query_one("#quiz-question", Markdown).update(f"## {q.question.get(lang)}\n\n*{self.t('your_answer')} · ctrl+r: {self.t('reveal')}*")
            area.display, options.display = True, False
            if not keep:
                area.focus()
        else:
            choice = next(c for c in q.choices if c.id == item.choice_id)
            hint = f"\n\n*{self.t('select_all_hint')}*" if choice.select_all else ""
            self.query_one("#quiz-question", Markdown).update(f"## {choice.prompt.get(lang)}{hint}")
            area.display, options.display = False, True
            highlighted = options.highlighted
            options.clear_options()
            marks = ["☑ " if i in self.picked else ("☐ " if choice.select_all else "") for i in range(len(choice.options))]
            options.add_options([f"{marks[i]}{chr(65 + i)}. {o.text.get(lang)}" for i, o in enumerate(choice.options)])
            options.disabled = self.answered
            if not keep:
                options.highlighted = 0
                options.focus()
            else:
                options.highlighted = highlighted
        feedback.set_class(not (self.revealed or self.answered), "hidden")
        if self.revealed and item.kind == "question":
            feedback.update(self._question_feedback())

    def _question_feedback(self) -> str:
        q = self.ctx.bank.questions[self.item.question_id]
        lang = self.lang
        typed = self.query_one("#answer-input", TextArea).text
        covered, missing = keyword_coverage(typed, q.keywords)
        kw = " ".join(f"**✓ {k}**" for k in covered) + ("  " if covered else "") + " ".join(f"~~{k}~~" for k in missing)
        parts = [f"**{self.t('keywords_covered')}: {len(covered)}/{len(q.keywords)}**  {kw}", q.answer.get(lang)]
        if q.key_points.get(lang):
            parts += [f"### {self.t('key_points')}", "\n".join(f"- {p}" for p in q.key_points.get(lang))]
        if self.mock and q.follow_ups:
            parts += [f"### {self.t('follow_ups')}"] + [f"**{f.question.get(lang)}**\n\n{f.answer.get(lang)}" for f in q.follow_ups]
        parts.append(f"*{self.t('rate_prompt')}*")
        return "\n\n".join(parts)

    def tick(self) -> None:
        left = MOCK_SECONDS - int(time.monotonic() - self.item_started)
        timer = self.query_one("#timer", Static)
        if self.revealed or self.answered:
            timer.update("")
            return
        timer.update(f"⏱ {max(left, 0)} {self.t('seconds_left')}")
        if left <= 0 and self.item.kind == "question":
            self.action_reveal()

    def action_reveal(self) -> None:
        if self.item.kind == "choice" and not self.answered and self._choice().select_all:
            self._answer_choice(self.picked)
            return
        if self.item.kind == "question" and not self.revealed:
            self.revealed = True
            self.query_one("#quiz-feedback", Markdown).update(self._question_feedback())
            self.query_one("#quiz-feedback").remove_class("hidden")
            area = self.query_one("#answer-input", TextArea)
            area.read_only = True
            self.set_focus(None)  # digits now rate instead of typing

    def _choice(self):
        q = self.ctx.bank.questions[self.item.question_id]
        return next(c for c in q.choices if c.id == self.item.choice_id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.item.kind != "choice" or self.answered:
            return
        if self._choice().select_all:
            self.picked ^= {event.option_index}
            self.show_item(keep=True)
            return
        self._answer_choice({event.option_index})

    def _answer_choice(self, picked: set[int]) -> None:
        choice = self._choice()
        correct = choice_correct(choice, picked)
        right = [chr(65 + i) for i, o in enumerate(choice.options) if o.correct]
        self.answered = True
        self.summary.outcomes.append(QuizOutcome(self.item, correct, None, time.monotonic() - self.item_started))
        verdict = f"**✓ {self.t('correct')}**" if correct else f"**✗ {self.t('wrong')}** → {', '.join(right)}"
        feedback = self.query_one("#quiz-feedback", Markdown)
        feedback.update(f"{verdict}\n\n{choice.explain.get(self.lang)}\n\n*n: {self.t('next')}*")
        feedback.remove_class("hidden")
        self.query_one("#quiz-options", OptionList).disabled = True

    @store_guard
    def action_rate(self, rating: int) -> None:
        if self.item.kind != "question" or not self.revealed or self.answered:
            return
        self.answered = True
        self.summary.outcomes.append(QuizOutcome(self.item, rating >= 3, rating, time.monotonic() - self.item_started))
        services = self.ctx.services
        if services is not None:
            from quiz.session.cards import question_card_id

            state = services.store.card(question_card_id(self.item.question_id))
            now = services.clock.now()
            out = services.scheduler.review(state, rating, now)
            services.store.record_review(state, out.after, rating, now, None, out.interval.total_seconds() / 86400)
        self.action_next()

    def action_next(self) -> None:
        if not self.answered:
            return
        if self.index + 1 < len(self.items):
            self.index += 1
            self.show_item()
            return
        self.finish()

    @store_guard
    def finish(self) -> None:
        from quiz.tui.screens.quiz_summary import QuizSummaryScreen

        if self.timer is not None:
            self.timer.stop()
        services = self.ctx.services
        if services is not None:
            now = services.clock.now()
            from datetime import timedelta

            started = now - timedelta(seconds=time.monotonic() - self.started)
            services.store.record_session(started, now, "mock" if self.mock else "quiz", len(self.summary.outcomes),
                                          self.summary.correct, self.summary.to_dict())
        self.app.switch_screen(QuizSummaryScreen(self.summary, time.monotonic() - self.started))
