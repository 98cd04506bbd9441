"""Pilot tests of each screen's main flow, on the small test pack with a fixed clock."""

from __future__ import annotations

import json

from textual.widgets import DataTable, Markdown, OptionList, Static, TextArea

from quiz.tui.app import QuizApp

SIZE = (100, 32)


async def settle(app, pilot, rounds: int = 600) -> None:
    """Until the exercise screen's check is over: the grader start and the grade are separate workers."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not getattr(app.screen, "running", False):
            return
        await pilot.pause(0.05)


async def test_home_lists_modules_and_counts(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#modules", DataTable)
        assert table.row_count == 2
        today = str(app.screen.query_one("#today", Static).render())
        assert "cards due 0" in today and "new cards left 12" in today
        assert "6 questions · 12 cards" in today  # questions and cards are named as such


async def test_review_a_card_lands_in_the_store(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ReviewScreen"
        assert "Question 1" in app.screen.query_one("#card-front", Markdown).source
        await pilot.press("3")  # not revealed yet: ignored
        assert ctx.store.review_count() == 0
        await pilot.press("space", "3")
        await pilot.pause()
        assert ctx.store.review_count() == 1
        assert ctx.store.card("q/q1").reps == 1
        assert "Question 2" in app.screen.query_one("#card-front", Markdown).source  # q1's flashcard waits for tomorrow
        await pilot.press("u")
        await pilot.pause()
        assert ctx.store.card("q/q1").is_new


async def test_quiz_session_to_summary(tmp_path, monkeypatch):
    import random
    from types import SimpleNamespace

    from tui.harness import FIXTURES, make_context

    ctx = make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", FIXTURES / "choice-pack"])
    # this seed deals a typed question, a multiple-choice item, then a typed question
    monkeypatch.setattr("quiz.session.quiz.random", SimpleNamespace(Random=lambda seed=None: random.Random(5)))
    app = QuizApp(ctx)
    kinds = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#quiz-count").value = "3"
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = app.screen
        assert session.__class__.__name__ == "QuizSessionScreen"
        for _ in range(3):
            kinds.append(session.item.kind)
            if session.item.kind == "question":
                session.query_one("#answer-input", TextArea).text = "Point"
                await pilot.press("ctrl+r")
                await pilot.pause()
                assert "Keywords covered" in session.query_one("#quiz-feedback", Markdown).source
                await pilot.press("3")
            else:
                session.query_one("#quiz-options", OptionList).focus()
                await pilot.press("enter")
                await pilot.pause()
                assert "Wrong" in session.query_one("#quiz-feedback", Markdown).source  # A is not the answer
                await pilot.press("n")
            await pilot.pause()
        assert app.screen.__class__.__name__ == "QuizSummaryScreen"
        assert "Score" in app.screen.query_one("#summary", Markdown).source
        rows = ctx.store.sessions()
        assert len(rows) == 1 and rows[0]["items"] == 3
        assert json.loads(rows[0]["summary"])["items"] == 3
    ctx.services.close()
    assert kinds == ["question", "choice", "question"]


async def test_exercise_check_with_fake_grader(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        editor = app.screen.query_one("#editor", TextArea)
        assert "raise NotImplementedError" in editor.text
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "fail" in str(app.screen.query_one("#results", Static).render())
        editor.text = "class Double:\n    def forward(ctx, x):\n        return x * 2\n"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "pass" in str(app.screen.query_one("#results", Static).render())
        assert ctx.store.exercise_status() == {"double-fixture": "passed"}
        await pilot.press("escape", "e")
        await pilot.pause()
        table = app.screen.query_one("#exercise-table", DataTable)
        assert "passed" in str(table.get_row_at(0)[1])


async def test_palette_finds_question_by_chinese_substring(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"问题 4")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "QuestionScreen"
        assert app.screen.question_id == "q4"


async def test_language_switch_at_run_time(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")  # the module's question list
        await pilot.pause()
        await pilot.press("enter")  # its first question
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert app.lang == "zh"
        sources = [m.source for m in app.screen.query(Markdown)]
        assert any("问题 1" in s for s in sources)


async def test_every_screen_reachable_by_keyboard_at_80x24(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=(80, 24)) as pilot:
        for key, name in [
            ("r", "ReviewScreen"),
            ("z", "QuizSetupScreen"),
            ("m", "QuizSetupScreen"),
            ("e", "ExercisesScreen"),
            ("t", "StatsScreen"),
            ("comma", "SettingsScreen"),
            ("question_mark", "HelpScreen"),
            ("b", "ModuleQuestionsScreen"),
            ("c", "CardsScreen"),
        ]:
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.__class__.__name__ == name
            await pilot.press("escape")
            await pilot.pause()


async def test_bindings_can_be_remapped_from_config(ctx):
    ctx.settings.keys = {"home.review": "v"}
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HomeScreen"
        await pilot.press("v")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ReviewScreen"


async def test_locked_database_is_shown_not_fatal(ctx):
    import sqlite3

    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        other = sqlite3.connect(ctx.store.path, timeout=0.1)
        other.execute("BEGIN EXCLUSIVE")
        ctx.store.conn.execute("PRAGMA busy_timeout = 100")
        ctx.store.busy_timeout_ms = 100  # too short to wait with a note: the error comes at once
        try:
            await pilot.press("space", "3")
            await pilot.pause()
            assert app.is_running and app.screen.__class__.__name__ == "ReviewScreen"
            assert any("locked" in str(n.message) for n in app._notifications)
        finally:
            other.rollback()
            other.close()
        await pilot.press("3")
        await pilot.pause()
        assert ctx.store.review_count() == 1


async def test_real_grader_from_the_exercise_screen(tmp_path):
    from tui.harness import FIXTURES, make_context

    from quiz.grader.runner import GraderWorker

    context = make_context(tmp_path, grader=GraderWorker)
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.open_screen("exercise", exercise_id="double-fixture")
            await pilot.pause()
            solution = (FIXTURES / "exercises" / "double" / "solution.py").read_text()
            app.screen.query_one("#editor", TextArea).text = solution
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            text = str(app.screen.query_one("#results", Static).render())
            assert "pass" in text and "2/2" in text
            assert context.store.exercise_status() == {"double-fixture": "passed"}
    finally:
        context.services.close()


async def test_a_running_check_can_be_cancelled(tmp_path):
    from tui.harness import make_context

    from quiz.grader.runner import GraderWorker

    context = make_context(tmp_path, grader=GraderWorker)
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.open_screen("exercise", exercise_id="double-fixture")
            await pilot.pause()
            endless = (
                "import torch\n\nclass Double(torch.autograd.Function):\n    @staticmethod\n"
                "    def forward(ctx, x):\n        while True:\n            pass\n"
            )
            app.screen.query_one("#editor", TextArea).text = endless
            for _ in range(100):  # until the grader is warm, so the cancel hits a running check
                if app.grader_service.ready:
                    break
                await pilot.pause(0.1)
            await pilot.press("ctrl+r")
            await pilot.pause(0.5)
            assert app.screen.running
            await pilot.press("escape")  # while grading, Esc cancels the check
            await settle(app, pilot)
            assert "cancelled" in str(app.screen.query_one("#results", Static).render())
            assert not app.screen.running
    finally:
        context.services.close()


async def test_bad_content_file_is_reported_in_the_app(tmp_path):
    from tui.harness import FIXTURES, make_context

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "broken.yaml").write_text("format_version: 1\nid: [\n", encoding="utf-8")
    context = make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", pack])
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.screen.__class__.__name__ == "HomeScreen"
            assert any("broken.yaml" in str(n.message) for n in app._notifications)
            assert len(context.bank.questions) == 6
    finally:
        context.services.close()


async def test_kernel_exercises_say_they_need_triton_when_it_is_missing(tmp_path, monkeypatch):
    from quiz.grader import triton_support
    from tui.harness import FIXTURES, make_context

    pack = tmp_path / "pack" / "kernel-fixture"
    pack.mkdir(parents=True)
    (pack / "exercise.yaml").write_text(
        "format_version: 1\nid: kernel-fixture\ntitle: {zh: 核, en: A kernel}\nmodule: alpha\nentry: add\n"
        "prompt: {zh: 写, en: Write}\nchecks:\n  - kind: kernel\n    reference: 'checks:twice'\n"
        "    args:\n      - {name: x, tensor: {shape: [5], dtype: float32, requires_grad: false}}\n",
        encoding="utf-8",
    )
    for name in ("solution.py", "starter.py", "checks.py"):
        (pack / name).write_text((FIXTURES / "exercises" / "double" / name).read_text())
    monkeypatch.setattr(triton_support, "available", lambda: False)
    context = make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", tmp_path / "pack"])
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.open_screen("exercises")
            await pilot.pause()
            table = app.screen.query_one("#exercise-table", DataTable)
            assert "needs Triton" in str(table.get_row("kernel-fixture")[1])
            assert "needs Triton" not in str(table.get_row("double-fixture")[1])
    finally:
        context.services.close()
