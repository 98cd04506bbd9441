"""Pilot tests of the review workflow: bury, undo stack, siblings, countdown, module review, quiz intervals, card browser."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Markdown, Static, TextArea

from quiz.tui.app import QuizApp

SIZE = (110, 32)


def messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def front(app) -> str:
    return app.screen.query_one("#card-front", Markdown).source


async def open_review(app, pilot, key="r"):
    await pilot.press(key)
    await pilot.pause()
    assert app.screen.__class__.__name__ == "ReviewScreen"


async def test_bury_a_new_card_and_it_returns_tomorrow(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(app, pilot)
        assert "Question 1" in front(app)
        await pilot.press("b")
        await pilot.pause()
        assert "Question 1" not in front(app)
        assert any("Buried" in m and "Alpha · question · new" in m for m in messages(app)), messages(app)
        await pilot.press("escape")
        ctx.services.clock.advance(days=1)
        await open_review(app, pilot)
        assert "Question 1" in front(app)


async def test_undo_takes_back_this_sessions_newest_action_and_says_which(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(app, pilot)
        await pilot.press("space", "3")  # rate q1 good
        await pilot.pause()
        assert "Question 2" in front(app)  # q1's own flashcard waits until tomorrow
        await pilot.press("s")  # suspend q2
        await pilot.pause()
        assert ctx.store.card("q/q2").suspended
        await pilot.press("u")
        await pilot.pause()
        assert not ctx.store.card("q/q2").suspended and ctx.store.card("q/q1").reps == 1
        assert any("Undone: suspend · q/q2" in m for m in messages(app))
        await pilot.press("u")
        await pilot.pause()
        assert ctx.store.card("q/q1").is_new
        assert any("Undone: rating good · q/q1" in m for m in messages(app))


async def test_undo_in_review_never_reaches_a_quiz_rating(ctx):
    from quiz.session.progress import Progress

    s = ctx.services
    elsewhere = Progress(s.store, s.clock, s.scheduler, s.limits)  # e.g. an earlier quiz
    elsewhere.rate(s.store.card("q/q4"), 3)
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(app, pilot)
        await pilot.press("u")
        await pilot.pause()
        assert ctx.store.card("q/q4").reps == 1
        assert any("Nothing to undo" in m for m in messages(app))


async def test_done_screen_counts_down_and_shows_the_card_when_due(ctx):
    ctx.settings.new_per_day = 1
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(app, pilot)
        await pilot.press("space", "1")  # again: back in one minute
        await pilot.pause()
        text = front(app)
        assert "come back in 1:00" in text and "Done for today" not in text
        ctx.services.clock.advance(seconds=30)
        app.screen.tick()
        await pilot.pause()
        assert "come back in 0:30" in front(app)
        ctx.services.clock.advance(seconds=31)
        app.screen.tick()
        await pilot.pause()
        assert "Question 1" in front(app)
        await pilot.press("space", "4")
        await pilot.pause()
        assert "Done for today" in front(app)


async def test_review_one_module_from_home(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#modules", DataTable).move_cursor(row=1)  # beta
        await open_review(app, pilot, key="R")
        assert app.screen.modules == ["beta"]
        assert "Question 4" in front(app)
        cards = app.screen.session.queue.new
        assert cards and all(c.split("/")[1] in ("q4", "q5", "q6") for c in cards)


async def test_quiz_setup_says_ratings_count_and_ratings_show_intervals(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("z")
        await pilot.pause()
        assert "Ratings of questions count" in str(app.screen.query_one("#quiz-ratings-note").render())
        app.screen.query_one("#quiz-count").value = "6"
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = app.screen
        while session.item.kind != "question":
            session.query_one("#quiz-options").focus()
            await pilot.press("enter", "n")
            await pilot.pause()
        session.query_one("#answer-input", TextArea).text = "x"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "3 good (10m)" in session.query_one("#quiz-feedback", Markdown).source
        qid = session.item.question_id
        await pilot.press("3")
        await pilot.pause()
        assert ctx.store.card(f"q/{qid}").reps == 1


async def test_card_browser_finds_suspends_unsuspends_forgets_and_undoes(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await pilot.pause()
        screen = app.screen
        assert screen.__class__.__name__ == "CardsScreen"
        table = screen.query_one("#cards-table", DataTable)
        assert table.row_count == 12
        await pilot.press("slash")
        await pilot.press(*"module:beta Front")
        await pilot.press("enter")
        await pilot.pause()
        assert [r.card_id for r in screen.rows] == ["q/q4/c", "q/q5/c", "q/q6/c"]
        assert ctx.store.cards() == {}  # letters typed in the search box are text, not commands
        await pilot.press("s")
        await pilot.pause()
        assert ctx.store.card("q/q4/c").suspended
        screen.query_one("#cards-search", Input).value = "state:suspended"
        await pilot.pause()
        assert [r.card_id for r in screen.rows] == ["q/q4/c"]
        await pilot.press("s")  # unsuspend
        await pilot.pause()
        assert not ctx.store.card("q/q4/c").suspended and screen.rows == []
        await pilot.press("u")  # undo the unsuspend
        await pilot.pause()
        assert ctx.store.card("q/q4/c").suspended
        assert any("Undone: unsuspend · q/q4/c" in m for m in messages(app))


async def test_card_browser_shows_history_and_next_due_and_forgets(ctx):
    from quiz.session.progress import Progress

    s = ctx.services
    Progress(s.store, s.clock, s.scheduler, s.limits).rate(s.store.card("q/q2"), 4)
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("cards", query="q/q2 state:review")
        await pilot.pause()
        screen = app.screen
        assert [r.card_id for r in screen.rows] == ["q/q2"]
        detail = str(screen.query_one("#cards-detail", Static).render())
        assert "easy" in detail and "Next due: 2026-03-" in detail
        await pilot.press("f")
        await pilot.pause()
        assert ctx.store.card("q/q2").is_new and ctx.store.review_count() == 1
        await pilot.press("u")
        await pilot.pause()
        assert ctx.store.card("q/q2").reps == 1


async def test_changing_retention_in_settings_reschedules_cards(ctx):
    from quiz.session.progress import Progress

    s = ctx.services
    Progress(s.store, s.clock, s.scheduler, s.limits).rate(s.store.card("q/q1"), 4)
    before = ctx.store.card("q/q1").due
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        app.screen.query_one("#set-desired_retention", Input).value = "0.8"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert ctx.store.card("q/q1").due > before
        assert any("Rescheduled" in m for m in messages(app))
