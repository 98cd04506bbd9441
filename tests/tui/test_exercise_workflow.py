"""Pilot tests of the exercise screen: the file on disk wins or is asked about, one shared grader, the path onward."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from textual.widgets import DataTable, Static, TextArea

from quiz import workspace
from quiz.tui.app import QuizApp
from tui.harness import FIXTURES, FakeGrader, make_context

SIZE = (110, 32)
PASSING = "class Double:\n    def forward(ctx, x):\n        return x * 2\n"


class CountingGrader(FakeGrader):
    made = 0

    def __init__(self):
        CountingGrader.made += 1


def results(app) -> str:
    return str(app.screen.query_one("#results", Static).render())


def messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def write_later(path: Path, text: str) -> None:
    """Write as another program would, with a visibly newer modification time."""
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


async def settle(app, pilot, rounds: int = 200) -> None:
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not getattr(app.screen, "running", False):
            return


async def open_exercise(app, pilot, exercise_id="double-fixture"):
    app.open_screen("exercise", exercise_id=exercise_id)
    await pilot.pause()
    return app.screen


async def test_a_clean_buffer_reloads_when_the_file_changes_on_disk(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_exercise(app, pilot)
        write_later(screen.path, "# changed by sed\n")
        screen.watch_file()
        await pilot.pause()
        assert screen.query_one("#editor", TextArea).text == "# changed by sed\n"
        assert any("changed on disk" in m for m in messages(app))
        await pilot.press("ctrl+s")
        assert screen.path.read_text() == "# changed by sed\n"


async def test_save_never_overwrites_a_file_changed_on_disk_without_asking(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_exercise(app, pilot)
        screen.query_one("#editor", TextArea).text = "# my unsaved work\n"
        write_later(screen.path, "# written by vim\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        assert screen.path.read_text() == "# written by vim\n"
        await pilot.press("n")  # keep the editor's version
        await pilot.pause()
        assert screen.query_one("#editor", TextArea).text == "# my unsaved work\n"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.path.read_text() == "# my unsaved work\n"


async def test_when_both_changed_the_disk_version_can_be_loaded(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_exercise(app, pilot)
        screen.query_one("#editor", TextArea).text = "# stale buffer\n"
        write_later(screen.path, PASSING)
        await pilot.press("ctrl+r")  # a check saves first: it asks instead
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("y")
        await pilot.pause()
        assert screen.query_one("#editor", TextArea).text == PASSING
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "pass" in results(app)
        assert screen.path.read_text() == PASSING


async def test_reset_from_the_command_line_reloads_and_reset_in_app_clears_results(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_exercise(app, pilot)
        screen.query_one("#editor", TextArea).text = PASSING
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "pass" in results(app)
        await pilot.press("ctrl+t", "y")
        await pilot.pause()
        assert "pass" not in results(app) and "Run checks" in results(app)
        assert "NotImplementedError" in screen.query_one("#editor", TextArea).text
        screen.query_one("#editor", TextArea).text = PASSING
        await pilot.press("ctrl+s")
        workspace.reset(ctx.bank, "double-fixture")  # `quiz exercise reset` in another terminal
        st = screen.path.stat()
        os.utime(screen.path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
        screen.watch_file()
        await pilot.pause()
        assert "NotImplementedError" in screen.query_one("#editor", TextArea).text


async def test_a_missing_editor_command_is_a_notification(ctx):
    ctx.settings.editor = "code-is-not-installed --wait"
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await open_exercise(app, pilot)
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert app.is_running and app.screen.__class__.__name__ == "ExerciseScreen"
        assert any("code-is-not-installed" in m for m in messages(app))


def make_pack(tmp_path: Path) -> Path:
    """Three exercises: alpha difficulty 1 and 2, beta difficulty 1."""
    pack = tmp_path / "more"
    for name, module, difficulty in [("double-two", "alpha", 1), ("double-three", "beta", 1)]:
        folder = pack / name
        shutil.copytree(FIXTURES / "exercises" / "double", folder)
        text = (folder / "exercise.yaml").read_text()
        text = text.replace("id: double-fixture", f"id: {name}").replace("module: alpha", f"module: {module}")
        text = text.replace("questions: [q1]", "questions: []").replace('en: "Times two"', f'en: "Times two {name}"')
        (folder / "exercise.yaml").write_text(
            text.replace("time_limit_s: 3", f"time_limit_s: 3\ndifficulty: {difficulty}")
        )
    return pack


async def test_one_grader_for_the_whole_app_started_by_the_list(tmp_path):
    CountingGrader.made = 0
    context = make_context(
        tmp_path, grader=CountingGrader, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", make_pack(tmp_path)]
    )
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("e")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert CountingGrader.made == 1 and app.grader_service.ready  # warm before any exercise opens
            for exercise_id in ("double-fixture", "double-two", "double-three", "double-fixture"):
                await open_exercise(app, pilot, exercise_id)
            app.screen.query_one("#editor", TextArea).text = PASSING
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            assert "pass" in results(app)
            assert CountingGrader.made == 1
    finally:
        context.services.close()


async def test_after_a_pass_the_next_unfinished_exercise_is_offered(tmp_path):
    context = make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", make_pack(tmp_path)])
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("e")
            await pilot.pause()
            table = app.screen.query_one("#exercise-table", DataTable)
            assert [table.get_row_at(i)[-1] for i in range(3)] == ["double-two", "double-fixture", "double-three"]
            table.move_cursor(row=1)
            await pilot.press("enter")
            await pilot.pause()
            app.screen.query_one("#editor", TextArea).text = PASSING
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            assert "Next unfinished exercise → Times two double-three" in results(app)
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert app.screen.exercise_id == "double-three"
            await pilot.press("escape")
            await pilot.pause()
            table = app.screen.query_one("#exercise-table", DataTable)
            assert table.cursor_row == 1  # the list kept its place
    finally:
        context.services.close()


async def test_x_on_a_question_with_several_exercises_lets_you_pick(tmp_path):
    pack = make_pack(tmp_path)
    for name in ("double-two", "double-three"):
        yaml = pack / name / "exercise.yaml"
        yaml.write_text(yaml.read_text().replace("questions: []", "questions: [q1]"))
    context = make_context(tmp_path, roots=[FIXTURES / "srs-pack", FIXTURES / "exercises", pack])
    app = QuizApp(context)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.open_screen("question", question_id="q1")
            await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "PickScreen"
            assert len(app.screen.items) == 3
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ExerciseScreen"
            assert app.screen.exercise_id == context.bank.exercises_for("q1")[1].id
    finally:
        context.services.close()
