"""A quiz session: type an answer, reveal, see which keywords it covered, rate 1-4; choices graded at once."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Markdown, OptionList, Static, TextArea

from quiz.content.dunders import escape_dunders
from quiz.content.keywords import label
from quiz.session.quiz import QuizItem, QuizOutcome, QuizSummary, choice_correct, keyword_coverage
from quiz.tui.plain import plain
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
        Binding("space", "rate(3)", "Good", id="quiz.space_good", show=False),
        Binding("a", "pick(0)", "A", id="quiz.pick_a", show=False),
        Binding("b", "pick(1)", "B", id="quiz.pick_b", show=False),
        Binding("c", "pick(2)", "C", id="quiz.pick_c", show=False),
        Binding("d", "pick(3)", "D", id="quiz.pick_d", show=False),
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
        self._progress = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="timer", classes="" if self.mock else "hidden")
        with VerticalScroll(id="quiz-scroll"):
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
        module = self.ctx.bank.modules.get(q.module)
        where = [
            f"{self.index + 1}/{len(self.items)}",
            f"#{q.number}" if q.number else "",
            module.name.get(lang) if module else q.module,
            self.t("mc_item") if item.kind == "choice" else self.t("open_item"),
        ]
        self.query_one("#quiz-progress", Static).update(plain(" · ".join(filter(None, where))))
        area = self.query_one("#answer-input", TextArea)
        options = self.query_one("#quiz-options", OptionList)
        feedback = self.query_one("#quiz-feedback", Markdown)
        if item.kind == "question":
            self.query_one("#quiz-question", Markdown).update(
                f"## {escape_dunders(q.question.get(lang))}\n\n*{self.t('your_answer')} · ctrl+r: {self.t('reveal')}*"
            )
            area.display, options.display = True, False
            if not keep:
                area.focus()
        else:
            choice = next(c for c in q.choices if c.id == item.choice_id)
            hint = f"\n\n*{self.t('select_all_hint')}*" if choice.select_all else ""
            self.query_one("#quiz-question", Markdown).update(f"## {escape_dunders(choice.prompt.get(lang))}{hint}")
            area.display, options.display = False, True
            highlighted = options.highlighted
            options.clear_options()
            marks = [
                "☑ " if i in self.picked else ("☐ " if choice.select_all else "") for i in range(len(choice.options))
            ]
            options.add_options(
                [plain(f"{marks[i]}{chr(65 + i)}. {o.text.get(lang)}") for i, o in enumerate(choice.options)]
            )
            options.disabled = self.answered
            if not keep:
                options.highlighted = 0
                options.focus()
            else:
                options.highlighted = highlighted
        feedback.set_class(not (self.revealed or self.answered), "hidden")
        if self.revealed and item.kind == "question":
            feedback.update(escape_dunders(self._question_feedback()))

    def _question_feedback(self) -> str:
        q = self.ctx.bank.questions[self.item.question_id]
        lang = self.lang
        typed = self.query_one("#answer-input", TextArea).text
        covered, missing = keyword_coverage(typed, q.keywords, lang)
        kw = "  ".join([f"**✓ {label(k, lang)}**" for k in covered] + [f"✗ *{label(k, lang)}*" for k in missing])
        parts = [
            f"*{self.t('rate_prompt')}*",
            f"**{self.t('keywords_covered')}: {len(covered)}/{len(q.keywords)}**  {kw}",
            q.answer.get(lang),
        ]
        if q.key_points.get(lang):
            parts += [f"### {self.t('key_points')}", "\n".join(f"- {p}" for p in q.key_points.get(lang))]
        if self.mock and q.follow_ups:
            parts += [f"### {self.t('follow_ups')}"] + [
                f"**{f.question.get(lang)}**\n\n{f.answer.get(lang)}" for f in q.follow_ups
            ]
        parts.append(f"*{self.rating_line()}*")
        return "\n\n".join(parts)

    def tick(self) -> None:
        left = MOCK_SECONDS - int(time.monotonic() - self.item_started)
        timer = self.query_one("#timer", Static)
        if self.revealed or self.answered:
            timer.update("")
            return
        timer.update(f"⏱ {max(left, 0)} {self.t('seconds_left')}")
        if left <= 0 and self.item.kind == "question":
            self.notify(self.t("time_up"), severity="warning", timeout=4)
            self.run_worker(self.action_reveal())

    async def action_reveal(self) -> None:
        if self.item.kind == "choice" and not self.answered and self._choice().select_all:
            self._answer_choice(self.picked)
            return
        if self.item.kind == "question" and not self.revealed:
            self.revealed = True
            feedback = self.query_one("#quiz-feedback", Markdown)
            feedback.remove_class("hidden")
            await feedback.update(escape_dunders(self._question_feedback()))
            area = self.query_one("#answer-input", TextArea)
            area.read_only = True
            self._show_feedback()

    def _show_feedback(self) -> None:
        """Focus the scroll area (arrows and page keys scroll; digits rate) and bring the feedback into view."""
        scroll = self.query_one("#quiz-scroll", VerticalScroll)
        scroll.focus()
        feedback = self.query_one("#quiz-feedback", Markdown)
        self.call_after_refresh(lambda: scroll.scroll_to_widget(feedback, animate=False, top=True))

    def action_pick(self, index: int) -> None:
        """Letter keys A-D answer a multiple-choice item."""
        options = self.query_one("#quiz-options", OptionList)
        if self.item.kind != "choice" or self.answered or index >= options.option_count:
            return
        options.highlighted = index
        if self._choice().select_all:  # letters mark options; ctrl+r submits the set
            self.picked ^= {index}
            self.show_item(keep=True)
            return
        self._answer_choice({index})

    def action_back(self) -> None:
        """Leaving mid-session asks first; what was answered is kept and summarised."""
        from quiz.tui.screens.confirm import ConfirmScreen

        started = self.summary.outcomes or self.answered or self.query_one("#answer-input", TextArea).text.strip()
        if not started:
            super().action_back()
            return

        def leave(yes: bool | None) -> None:
            if yes:
                if self.summary.outcomes:
                    self.finish()
                else:
                    super(QuizSessionScreen, self).action_back()

        self.app.push_screen(ConfirmScreen(self.t("confirm_leave_quiz"), self.t("yes"), self.t("no")), leave)

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
        feedback.update(f"{verdict}\n\n{escape_dunders(choice.explain.get(self.lang))}\n\n*n: {self.t('next')}*")
        feedback.remove_class("hidden")
        self.query_one("#quiz-options", OptionList).disabled = True
        self._show_feedback()

    @store_guard
    def action_rate(self, rating: int) -> None:
        if self.item.kind != "question" or not self.revealed or self.answered:
            return
        progress = self.progress
        if progress is not None:  # written first: a rating that could not be saved is not counted
            from quiz.session.cards import question_card_id

            state = progress.store.card(question_card_id(self.item.question_id))
            progress.rate(state, rating, int((time.monotonic() - self.item_started) * 1000))
        self.answered = True
        self.summary.outcomes.append(QuizOutcome(self.item, rating >= 3, rating, time.monotonic() - self.item_started))
        self.action_next()

    @property
    def progress(self):
        """This session's writes (quiz.session.progress.Progress); None without a store."""
        if self._progress is None and self.ctx.services is not None:
            from quiz.session.progress import Progress

            s = self.ctx.services
            self._progress = Progress(s.store, s.clock, s.scheduler, s.limits)
        return self._progress

    def rating_line(self) -> str:
        """The four ratings, each with the interval it would give the question's card."""
        from quiz.session.cards import question_card_id
        from quiz.srs.scheduler import format_interval

        keys = ("again", "hard", "good", "easy")
        if self.progress is None:
            return self.t("rate_prompt")
        preview = self.progress.preview(self.progress.store.card(question_card_id(self.item.question_id)))
        return " · ".join(f"{r} {self.t(k)} ({format_interval(preview[r])})" for r, k in enumerate(keys, 1))

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
        if self.progress is not None:
            self.progress.record_quiz(time.monotonic() - self.started, "mock" if self.mock else "quiz", self.summary)
        self.app.switch_screen(QuizSummaryScreen(self.summary, time.monotonic() - self.started))
