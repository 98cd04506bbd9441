"""Quiz and mock-interview keys: scrolling after reveal, space = Good, A-D pick, Esc asks, the timer's cue."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Markdown, TextArea

from quiz.content import load_default_bank
from quiz.session.quiz import QuizItem
from quiz.tui.app import QuizApp
from quiz.tui.screens.quiz_session import QuizSessionScreen
from tui.harness import make_context

SIZE = (80, 24)


@pytest.fixture
def bank_ctx(tmp_path):
    ctx = make_context(tmp_path)
    ctx.bank = load_default_bank([])
    yield ctx
    ctx.services.close()


async def start(app, pilot, items, mock=False) -> QuizSessionScreen:
    await pilot.pause()
    screen = QuizSessionScreen(items, mock=mock)
    app.push_screen(screen)
    await pilot.pause()
    return screen


async def test_revealed_answer_scrolls_by_keyboard_and_space_rates_good(bank_ctx):
    app = QuizApp(bank_ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(
            app, pilot, [QuizItem("question", "autograd-function"), QuizItem("question", "ddp-vs-fsdp")]
        )
        await pilot.press("s", "p", "a", "c", "e", "space", "x")  # letters and space type into the answer first
        assert screen.query_one("#answer-input", TextArea).text == "space x"
        await pilot.press("ctrl+r")
        await pilot.pause()
        scroll = screen.query_one("#quiz-scroll", VerticalScroll)
        assert app.focused is scroll
        before = scroll.scroll_y
        assert before > 0  # the feedback was brought into view
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroll.scroll_y > before
        await pilot.press("space")
        await pilot.pause()
        assert bank_ctx.store.card("q/autograd-function").reps == 1
        assert screen.index == 1


async def test_letter_keys_pick_a_choice(bank_ctx):
    q = bank_ctx.bank.questions["autograd-function"]
    choice = q.choices[0]
    right = next(i for i, o in enumerate(choice.options) if o.correct)
    app = QuizApp(bank_ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot, [QuizItem("choice", q.id, choice.id)])
        await pilot.press("abcd"[right])
        await pilot.pause()
        assert screen.answered and screen.summary.outcomes[0].correct
        assert "✓" in screen.query_one("#quiz-feedback", Markdown).source


async def test_escape_mid_session_asks_first(bank_ctx):
    app = QuizApp(bank_ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot, [QuizItem("question", "autograd-function")])
        await pilot.press("g", "r", "a", "d")
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen not in app.screen_stack


async def test_mock_timer_reveals_with_a_cue_and_keeps_the_title_line(bank_ctx):
    app = QuizApp(bank_ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot, [QuizItem("question", "autograd-function")], mock=True)
        assert screen.query_one("#timer").region.y > screen.query_one("Header").region.y
        screen.item_started -= 10_000  # the clock has run out
        screen.tick()
        await pilot.pause()
        assert screen.revealed
        assert app.focused is screen.query_one("#quiz-scroll")
        assert any("Time is up" in str(n.message) for n in app._notifications)
