"""Text from content, config, learner code and the file system is shown literally on every screen, never as markup."""

from __future__ import annotations

import html
import re

import pytest
from textual.widgets import DataTable, OptionList, Static, TextArea

from quiz.config import Settings
from quiz.content.loader import load_bank
from quiz.grader.results import Result
from quiz.grader.results import TestResult as CheckResult
from quiz.services import Services
from quiz.srs.clock import FixedClock
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store
from quiz.tui.app import QuizApp
from quiz.tui.context import AppContext
from tui.harness import FIXTURES, T0

SIZE = (140, 40)
HOSTILE = "[/] boom [link=https://example.com]x[/link] [bold]"


class MarkupGrader:
    """A grader whose test names, messages and verdict carry markup, as a learner's exception text can."""

    def start(self):
        return 0

    def close(self):
        pass

    def kill(self):
        pass

    def grade(self, exercise, folder, file, lang="en"):
        tests = [CheckResult(f"check {HOSTILE}", "error", f"ValueError: {HOSTILE}", f"printed {HOSTILE}")]
        return Result(exercise["id"], "error", f"learner raised {HOSTILE}", 3, tests)


class EmptyGrader(MarkupGrader):
    def grade(self, exercise, folder, file, lang="en"):
        return Result(exercise["id"], "error", f"cannot import: {HOSTILE}", 3, [])


def screen_text(app) -> str:
    """The text of the current screen as the terminal shows it (from the SVG screenshot)."""
    svg = app.export_screenshot()
    body = svg[svg.find("<g") :]
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    return text.replace("\xa0", " ")


def markup_context(tmp_path, grader=MarkupGrader, lang="en", pack=None):
    pack = pack or FIXTURES / "markup-pack"
    bank = load_bank([pack])
    assert not bank.errors, bank.errors
    settings = Settings(lang=lang)
    store = Store.open(tmp_path / "progress.sqlite3")
    services = Services(settings, store, FixedClock(T0), FsrsScheduler(fuzz=False))
    return AppContext(bank=bank, settings=settings, services=services, grader_factory=grader)


def assert_literal(app, *fragments: str) -> None:
    text = screen_text(app)
    for fragment in fragments:
        if fragment not in text:
            raise AssertionError(f"{app.screen.__class__.__name__}: {fragment!r} not in:\n{text}")


async def test_every_screen_shows_markup_literally(tmp_path):
    ctx = markup_context(tmp_path)
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.screen.__class__.__name__ == "HomeScreen"
            table = app.screen.query_one("#modules", DataTable)
            assert table.row_count == 2
            assert_literal(app, "[/] Alpha [link=https://example.com]click[/link]", "[@click=app.quit]Beta[/]")
            # no cell became a link or an action
            for row in range(table.row_count):
                for cell in table.get_row_at(row):
                    assert "link" not in str(getattr(cell, "spans", "")) and "@click" not in str(
                        getattr(cell, "spans", "")
                    )

            await pilot.press("b")  # the question list of the first module
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ModuleQuestionsScreen"
            assert_literal(app, "[/] Alpha [link=https://example.com]click[/link]", "Question [link=x]one[/link]")
            await pilot.press("enter")  # its first question
            await pilot.pause()
            assert app.screen.__class__.__name__ == "QuestionScreen"
            assert_literal(app, "[/] Alpha [link=https://example.com]click[/link]")
            await pilot.press("space")
            await pilot.pause()
            assert_literal(app, "Question [link=x]one[/link] [bold]", "Answer [/] [link=x]x[/link] [b]", "Point [i]")
            await pilot.press("x")  # the linked exercise
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ExerciseScreen"
            await pilot.press("ctrl+r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            results = str(app.screen.query_one("#results", Static).render())
            assert f"check {HOSTILE}" in results and f"ValueError: {HOSTILE}" in results
            await pilot.press("ctrl+g")
            await pilot.pause()
            await pilot.press("escape", "escape", "escape")
            await pilot.pause()

            await pilot.press("r")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ReviewScreen"
            assert_literal(
                app, "[/] Alpha [link=https://example.com]click[/link] · question"
            )  # the status names the module
            await pilot.press("space")
            await pilot.pause()
            await pilot.press("3")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()

            await pilot.press("z")
            await pilot.pause()
            assert_literal(app, "[/] Alpha [link=https://example.com]click[/link]")
            app.screen.query_one("#quiz-count").value = "2"
            await pilot.press("ctrl+s")
            await pilot.pause()
            session = app.screen
            assert session.__class__.__name__ == "QuizSessionScreen"
            for _ in range(2):
                if session.item.kind == "question":
                    session.query_one("#answer-input", TextArea).text = "[/] my [bold] answer"
                    await pilot.press("ctrl+r")
                    await pilot.pause()
                    await pilot.press("3")
                else:
                    session.query_one("#quiz-options", OptionList).focus()
                    await pilot.press("enter")
                    await pilot.pause()
                    await pilot.press("n")
                await pilot.pause()
            assert app.screen.__class__.__name__ == "QuizSummaryScreen"
            await pilot.press("escape")
            await pilot.pause()
            while len(app.screen_stack) > 2:
                app.pop_screen()
                await pilot.pause()

            for key, name, fragment in [
                ("e", "ExercisesScreen", "[/] Times [link=x]two[/link]"),
                ("t", "StatsScreen", "[/] Alpha [link=https:/…"),
                ("comma", "SettingsScreen", None),
                ("question_mark", "HelpScreen", None),
            ]:
                await pilot.press(key)
                await pilot.pause()
                assert app.screen.__class__.__name__ == name
                if name == "StatsScreen":  # module mastery is the last chart: read the chart's own text, which
                    # does not depend on how far a loaded machine got with scrolling
                    body = str(app.screen.query_one("#stats-body").render())
                    assert fragment.rstrip("…") in body, body
                elif fragment:
                    assert_literal(app, fragment)
                await pilot.press("escape")
                await pilot.pause()
            assert app.screen.__class__.__name__ == "HomeScreen"
    finally:
        ctx.services.close()


@pytest.mark.parametrize(
    "grader, shown", [(EmptyGrader, f"cannot import: {HOSTILE}"), (MarkupGrader, f"ValueError: {HOSTILE}")]
)
async def test_learner_exception_text_is_literal_on_the_exercise_screen(tmp_path, grader, shown):
    ctx = markup_context(tmp_path, grader=grader)
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.open_screen("exercise", exercise_id="markup-ex")
            await pilot.pause()
            await pilot.press("ctrl+r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert shown in str(app.screen.query_one("#results", Static).render())
            assert app.screen.__class__.__name__ == "ExerciseScreen"
    finally:
        ctx.services.close()


async def test_palette_lists_and_searches_markup_titles(tmp_path):
    ctx = markup_context(tmp_path)
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("ctrl+p")
            await pilot.pause(0.3)
            assert_literal(app, "[/] Question [link=x]one[/link]")
            await pilot.press(*"question")
            await pilot.pause(0.5)
            assert_literal(app, "[link=x]one[/link]")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "QuestionScreen"
            assert app.screen.question_id == "m1"
    finally:
        ctx.services.close()


async def test_chinese_screens_show_markup_literally(tmp_path):
    ctx = markup_context(tmp_path, lang="zh")
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert_literal(app, "[/] 甲 [bold]", "[@click=app.quit]乙[/")
            await pilot.press("b")
            await pilot.pause()
            assert_literal(app, "[/] 甲 [bold]")
    finally:
        ctx.services.close()


async def test_notifications_show_paths_and_errors_literally(tmp_path):
    pack = tmp_path / "pack[link=x]"
    pack.mkdir()
    for path in (FIXTURES / "markup-pack").rglob("*"):
        target = pack / path.relative_to(FIXTURES / "markup-pack")
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (pack / "[bold]broken[b.yaml").write_text("format_version: 1\nid: [\n", encoding="utf-8")
    bank = load_bank([pack])
    settings = Settings(lang="en")
    ctx = AppContext(bank=bank, settings=settings, services=None, store_error=f"{tmp_path}/[/]x is damaged [link=x]")
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause(0.3)
        toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
        assert any("[/]x is damaged [link=x]" in t for t in toasts), toasts
        assert any("[bold]broken[b.yaml" in t for t in toasts), toasts
        await pilot.press("t")
        await pilot.pause()
        assert_literal(app, "[/]x is damaged [link=x]")


async def test_key_remapped_to_a_bracket_shows_literally(tmp_path):
    ctx = markup_context(tmp_path)
    ctx.settings.keys = {"home.review": "[/]", "home.quiz": "[link=x]"}
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert_literal(app, "[/] Review")
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "HelpScreen"
            assert_literal(app, "[link=x]")
    finally:
        ctx.services.close()
