"""The finish at 80x24: display-width columns, the key bar's overflow marker, help, review status, remapped keys."""

from __future__ import annotations

from textual.widgets import Button, DataTable, Static

from quiz import paths
from quiz.content import load_default_bank
from quiz.tui.app import QuizApp
from quiz.tui.cells import fit, width
from quiz.tui.widgets.keybar import KeyBar

SMALL = (80, 24)


def test_fit_counts_cjk_as_two_cells():
    assert width("模型并行与流水线") == 16
    assert fit("模型并行与流水线", 18) == "模型并行与流水线  "
    assert width(fit("模型并行与流水线", 9)) == 9 and fit("模型并行与流水线", 9).endswith("…")


async def test_home_in_chinese_shows_whole_module_names_and_hides_empty_modules(ctx):
    ctx.bank = load_default_bank([])
    # The built-in bank fills every module, so empty one to see it hidden.
    for qid in [q.id for q in ctx.bank.questions.values() if q.module == "storage-virtualization"]:
        del ctx.bank.questions[qid]
    ctx.settings.lang = "zh"
    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#modules", DataTable)
        names = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert "模型并行与流水线" in names
        with_questions = {q.module for q in ctx.bank.questions.values()}
        assert table.row_count == len([m for m in ctx.bank.ordered_modules() if m.id in with_questions])
        assert "1 个暂无内容的模块已隐藏" in str(app.screen.query_one("#today", Static).render())
        assert "存储与虚拟化" not in names


async def test_key_bar_marks_keys_that_do_not_fit(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one(KeyBar).render())
        assert text.rstrip().endswith("…") and width(text) <= 40
    app = QuizApp(ctx)
    async with app.run_test(size=(160, 24)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one(KeyBar).render())
        assert "…" not in text and "palette" in text


async def test_key_bar_uses_its_whole_content_width(ctx):
    # the exercise screen's keys take exactly 98 cells: they all fit a 100-column bar (one cell of padding
    # each side) and one column less cuts the last one
    full = "esc Back  ^r Run checks  ^s Save  ^g Hint  ^t Reset  ^o Solution  ^b $EDITOR  f2 中/EN  ^p palette"
    assert width(full) == 98
    for columns, expected in [(100, full), (99, full.removesuffix("^p palette") + "…")]:
        app = QuizApp(ctx)
        async with app.run_test(size=(columns, 24)) as pilot:
            app.open_screen("exercise", exercise_id="double-fixture")
            await pilot.pause()
            bar = app.screen.query_one(KeyBar)
            assert str(bar.render()) == expected and width(expected) <= bar.size.width


async def test_help_lists_the_screens_keys_first_and_where_data_lives(ctx):
    ctx.settings.lang = "zh"
    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        ids = [row[2] for row in screen.rows()]
        assert ids.index("home.review") < ids.index("help")  # the screen's own keys before the app's
        table = screen.query_one("#help-table", DataTable)
        assert [str(c.label) for c in table.columns.values()] == ["按键", "功能", "绑定 id"]
        notes = str(screen.query_one("#help-notes", Static).render())
        assert str(paths.data_dir()) in notes and "[keys]" in notes
        assert screen.query_one("#help-notes").region.bottom <= 24  # visible at 80x24


async def test_review_status_names_the_card_in_words_and_buttons_show_remapped_keys(ctx):
    ctx.settings.keys = {"review.good": "g"}
    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        await pilot.pause()
        status = str(app.screen.query_one("#review-status", Static).render())
        assert status.startswith("Alpha · question")  # the test pack has no syllabus numbers
        assert "Alpha" in status and "question" in status and "q/" not in status
        assert str(app.screen.query_one("#rate-3", Button).label).startswith("g good")
        await pilot.press("space", "g")
        await pilot.pause()
        assert ctx.store.review_count() == 1


async def test_question_screen_shows_dunders_as_typed(ctx):
    from quiz.content.dunders import bare_dunders

    ctx.bank = load_default_bank([])
    app = QuizApp(ctx)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_screen("question", question_id="module-call-vs-forward")
        await pilot.pause()
        source = app.screen.query_one("#answer").source
        assert "\\_\\_call\\_\\_" in source or "`__call__`" in source
        assert bare_dunders(source) == []


async def test_theme_chosen_at_run_time_is_saved(ctx):
    from quiz.config import load_settings

    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        app.theme = "nord"
        await pilot.pause()
    assert load_settings().theme == "nord"
    assert paths.config_file().is_file()


async def test_settings_has_a_theme_field(ctx):
    from textual.widgets import Select

    from quiz.config import load_settings

    app = QuizApp(ctx)
    async with app.run_test(size=(100, 40)) as pilot:
        app.open_screen("settings")
        await pilot.pause()
        app.screen.query_one("#set-theme", Select).value = "gruvbox"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.theme == "gruvbox"
    assert load_settings().theme == "gruvbox"


async def test_screenshot_key_saves_into_the_data_dir_and_names_the_path(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f12")
        await pilot.pause()
        shots = list((paths.data_dir() / "screenshots").glob("*.svg"))
        assert len(shots) == 1
        assert any(str(shots[0]) in str(n.message) for n in app._notifications)


async def test_home_tells_cards_due_now_from_cards_due_later_today(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r", "space", "1")  # Again: the card comes back in minutes, later today
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        today = str(app.screen.query_one("#today", Static).render())
        assert "cards due 0 (+1 later today)" in today


async def test_key_bar_follows_a_language_switch_on_screens_that_keep_their_widgets(ctx):
    # the exercise, review and quiz screens redraw their text in place on F2 rather than recomposing
    app = QuizApp(ctx)
    async with app.run_test(size=(160, 24)) as pilot:
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        assert "Run checks" in str(app.screen.query_one(KeyBar).render())
        await pilot.press("f2")
        await pilot.pause()
        text = str(app.screen.query_one(KeyBar).render())
        assert "Run checks" not in text and "返回" in text, text
