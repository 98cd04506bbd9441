"""Browsing: a module's question list, and jumping from a question to related questions and exercises."""

from __future__ import annotations

from textual.widgets import DataTable, OptionList

from quiz.content import load_default_bank
from quiz.tui.app import QuizApp


async def test_browse_opens_the_module_question_list_then_a_question(ctx):
    ctx.bank = load_default_bank([])
    app = QuizApp(ctx)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await pilot.pause()
        assert type(app.screen).__name__ == "ModuleQuestionsScreen"
        table = app.screen.query_one("#module-questions", DataTable)
        first_module = ctx.bank.populated_modules()[0].id
        assert table.row_count == len(ctx.bank.ordered_questions(first_module))
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen.question_id == ctx.bank.ordered_questions(first_module)[1].id


async def test_related_questions_can_be_jumped_to(ctx):
    ctx.bank = load_default_bank([])
    app = QuizApp(ctx)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_screen("question", question_id="autograd-function")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        options = app.screen.query_one("#related-list", OptionList)
        related = ctx.bank.questions["autograd-function"].related
        assert options.option_count == len(related) + len(ctx.bank.exercises_for("autograd-function"))
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "QuestionScreen" and app.screen.question_id == related[0]
