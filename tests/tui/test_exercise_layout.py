"""Exercise screen at 80x24: a usable editor, results that scroll, Enter keeps indentation, no toast over results."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Static, TextArea

from quiz.grader import results as grader_results
from quiz.tui.app import QuizApp
from quiz.tui.widgets.code_editor import next_indent

SIZE = (80, 24)


def test_next_indent():
    assert next_indent("        x = 1") == "        "
    assert next_indent("    def forward(ctx, x):") == "        "
    assert next_indent("\tif y:  ", 4) == "\t    "
    assert next_indent("") == ""


async def test_enter_keeps_indentation(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        editor = app.screen.query_one("#editor", TextArea)
        editor.text = "def f(x):"
        editor.move_cursor((0, len("def f(x):")))
        await pilot.press("enter", "y", "enter", "z")
        assert editor.text == "def f(x):\n    y\n    z"


async def test_editor_keeps_room_and_long_results_scroll(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        screen = app.screen
        tests = [grader_results.TestResult(f"check {i}", "fail", f"wrong value {i}") for i in range(8)]
        screen.running = True
        screen.show_result(grader_results.Result("double-fixture", "fail", "", 5, tests))
        await pilot.pause()
        assert screen.query_one("#editor").size.height >= 10
        results = screen.query_one("#results-scroll", VerticalScroll)
        assert results.max_scroll_y > 0  # more rows than fit: the panel scrolls rather than cutting them off
        results.scroll_end(animate=False)
        await pilot.pause()
        assert results.scroll_y == results.max_scroll_y > 0


async def test_save_is_said_on_the_file_line_not_in_a_toast(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved" in str(app.screen.query_one("#exercise-file", Static).render())
        assert not app._notifications
