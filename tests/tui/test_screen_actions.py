"""Pilot tests of the screen actions the main flows skip: choices, the mock timer, weakest topics, suspend,
bury, and the exercise screen's hint, reset and solution."""

from __future__ import annotations

import json
from types import SimpleNamespace

from textual.widgets import Markdown, OptionList, Static, Switch, TextArea

from quiz import workspace
from quiz.session.quiz import QuizItem
from quiz.tui.app import QuizApp
from quiz.tui.screens import quiz_session
from quiz.tui.screens.quiz_session import QuizSessionScreen
from tui.harness import FIXTURES, make_context

SIZE = (100, 32)
CHOICES = FIXTURES / "choice-pack"


def choice_context(tmp_path):
    return make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", CHOICES])


async def pick(pilot, *indices):
    options = pilot.app.screen.query_one("#quiz-options", OptionList)
    options.focus()
    for index in indices:
        options.highlighted = index
        await pilot.press("enter")
        await pilot.pause()


async def test_choices_are_graded_and_saved_with_the_session(tmp_path):
    ctx = choice_context(tmp_path)
    items = [
        QuizItem("choice", "q7", "one"),
        QuizItem("choice", "q7", "one"),
        QuizItem("choice", "q8", "many"),
        QuizItem("choice", "q8", "many"),
        QuizItem("choice", "q8", "many"),
    ]
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizSessionScreen(items))
            await pilot.pause()
            screen = app.screen
            feedback = screen.query_one("#quiz-feedback", Markdown)
            await pick(pilot, 1)  # the right one
            assert "✓ Correct" in feedback.source and "Explain 7" in feedback.source
            await pilot.press("n")
            await pick(pilot, 0)  # the wrong one
            assert "✗ Wrong" in feedback.source and "→ B" in feedback.source
            await pilot.press("n")
            await pilot.pause()
            assert "Select all that apply" in screen.query_one("#quiz-question", Markdown).source
            await pick(pilot, 0, 2)  # both right ones
            assert not screen.answered
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert "✓ Correct" in feedback.source
            await pilot.press("n")
            await pick(pilot, 0)  # one of the two right ones only
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert "✗ Wrong" in feedback.source and "→ A, C" in feedback.source
            await pilot.press("n")
            await pick(pilot, 0, 1, 1, 2)  # B picked, then unpicked
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert "✓ Correct" in feedback.source
            await pilot.press("n")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "QuizSummaryScreen"
        rows = ctx.store.sessions()
        assert len(rows) == 1 and rows[0]["items"] == 5 and rows[0]["correct"] == 3
        outcomes = json.loads(rows[0]["summary"])["outcomes"]
        assert [o["correct"] for o in outcomes] == [True, False, True, False, True]
        assert ctx.store.review_count() == 0  # choices do not rate SRS cards
    finally:
        ctx.services.close()


async def test_a_typed_answer_shows_keyword_coverage_and_its_rating_reaches_the_scheduler(tmp_path):
    ctx = choice_context(tmp_path)
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizSessionScreen([QuizItem("question", "q7")]))
            await pilot.pause()
            app.screen.query_one("#answer-input", TextArea).text = "the GRAD_FN holds it"
            await pilot.press("ctrl+r")
            await pilot.pause()
            source = app.screen.query_one("#quiz-feedback", Markdown).source
            assert "**Keywords covered: 1/2**  **✓ grad_fn**  ✗ *save for backward*\n" in source
            await pilot.press("2")
            await pilot.pause()
        card = ctx.store.card("q/q7")
        assert card.reps == 1 and not card.is_new
        row = ctx.store.conn.execute("SELECT rating FROM review_log").fetchone()
        assert row["rating"] == 2
    finally:
        ctx.services.close()


async def test_mock_timer_counts_down_and_reveals_at_zero(ctx, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(quiz_session, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(QuizSessionScreen([QuizItem("question", "q1"), QuizItem("question", "q2")], mock=True))
        await pilot.pause()
        screen = app.screen
        assert screen.timer is not None
        clock[0] += 30
        screen.tick()
        timer = screen.query_one("#timer", Static)
        assert f"⏱ {quiz_session.MOCK_SECONDS - 30} seconds left" in str(timer.render())
        assert not screen.revealed
        clock[0] += quiz_session.MOCK_SECONDS
        screen.tick()
        await pilot.pause()
        assert screen.revealed
        assert "Keywords covered" in screen.query_one("#quiz-feedback", Markdown).source
        screen.tick()
        assert str(timer.render()) == ""


async def test_weakest_topics_mode_asks_the_most_lapsed_question_first(ctx):
    from quiz.srs.cardstate import REVIEW, CardState

    store = ctx.store
    with store.transaction():
        store._put(CardState("q/q5", state=REVIEW, stability=3.0, difficulty=5.0, due=None, lapses=4, reps=6))
        store._put(CardState("q/q2", state=REVIEW, stability=1.0, difficulty=5.0, due=None, lapses=1, reps=3))
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("z")
        await pilot.pause()
        app.screen.query_one("#quiz-count").value = "2"
        app.screen.query_one("#quiz-weakest", Switch).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [item.question_id for item in app.screen.items] == ["q5", "q2"]


async def test_review_suspend_and_bury_take_cards_out_of_today(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert screen.current[0].card_id == "q/q1"
        await pilot.press("s")
        await pilot.pause()
        assert ctx.store.card("q/q1").suspended
        assert screen.current[0].card_id == "q/q1/c"
        await pilot.press("b")
        await pilot.pause()
        buried = ctx.store.card("q/q1/c").buried_until
        assert buried is not None and buried > ctx.services.clock.now()
        assert screen.current[0].card_id == "q/q2"
        assert "q/q1" not in screen.session.queue.new and "q/q1/c" not in screen.session.queue.new


async def test_exercise_hint_reset_and_solution(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        screen = app.screen
        hints = screen.query_one("#exercise-hints", Markdown)
        assert hints.source == ""
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert "**Hint 1**: The gradient is 2." in hints.source
        await pilot.press("ctrl+g")  # only one hint: stays at one
        await pilot.pause()
        assert hints.source.count("Hint") == 1

        editor = screen.query_one("#editor", TextArea)
        editor.text = "my own attempt\n"
        await pilot.press("ctrl+s")
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("n")  # declined: nothing changes
        await pilot.pause()
        assert editor.text == "my own attempt\n"
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert "raise NotImplementedError" in editor.text
        saved = list(workspace.workspace_file("double-fixture").parent.glob("double_fixture.*.bak"))
        assert len(saved) == 1 and saved[0].read_text() == "my own attempt\n"

        await pilot.press("ctrl+o")  # not passed yet: asks first
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("n")
        await pilot.pause()
        assert "Solution" not in hints.source
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert "### Solution" in hints.source and "return" in hints.source


async def test_solution_shows_at_once_after_a_pass(ctx):
    ctx.store.record_attempt("double-fixture", ctx.services.clock.now(), "pass", 2, 2, 10)
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ExerciseScreen"
        assert "### Solution" in app.screen.query_one("#exercise-hints", Markdown).source
