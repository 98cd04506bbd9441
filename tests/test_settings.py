"""config.toml: every value checked (warned about once, by key, with a fallback), saved without losing comments."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from quiz.config import Settings, load_settings, save_settings

USER_FILE = """# my study settings
lang = "en"  # English, please
desired_retention = 0.85
mystery_option = 3   # a key from a newer version: keep it

[keys]
"home.review" = "v"  # v for view
"review.again" = 5

[plugins.extra]
colour = "teal"
"""


def config(isolated_home, text: str):
    path = isolated_home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "line, key, attr, fallback",
    [
        ("lang = 5", "lang", "lang", "en"),
        ('lang = "fr"', "lang", "lang", "en"),
        ('desired_retention = "high"', "desired_retention", "desired_retention", 0.9),
        ("desired_retention = 5", "desired_retention", "desired_retention", 0.99),
        ("desired_retention = nan", "desired_retention", "desired_retention", 0.9),
        ("new_per_day = -3", "new_per_day", "new_per_day", 0),
        ("new_per_day = true", "new_per_day", "new_per_day", 20),
        ("reviews_per_day = 1.5", "reviews_per_day", "reviews_per_day", 200),
        ("day_start_hour = 30", "day_start_hour", "day_start_hour", 23),
        ('interleave_modules = "yes"', "interleave_modules", "interleave_modules", False),
        ("editor = 3", "editor", "editor", ""),
        ('keys = "x"', "keys", "keys", {}),
        ('[keys]\n"review.again" = 5', "review.again", "keys", {}),
        ('[keys]\n"review.again" = ""', "review.again", "keys", {}),
        ('[keys]\n"review.again" = "a, "', "review.again", "keys", {}),
    ],
)
def test_each_bad_value_is_named_and_falls_back(isolated_home, line, key, attr, fallback):
    settings = load_settings(config(isolated_home, line + "\n"))
    assert getattr(settings, attr) == fallback
    assert any(key in p for p in settings.problems), settings.problems


def test_good_values_are_kept_without_problems(isolated_home):
    settings = load_settings(
        config(
            isolated_home,
            'lang = "zh"\ndesired_retention = 0.8\nday_start_hour = 0\n[keys]\n"home.review" = "v,ctrl+r"\n',
        )
    )
    assert settings.problems == []
    assert (settings.lang, settings.desired_retention, settings.day_start_hour) == ("zh", 0.8, 0)
    assert settings.keys == {"home.review": "v,ctrl+r"}


def test_broken_toml_gives_defaults_and_one_warning(isolated_home, caplog):
    path = config(isolated_home, "lang = \n[[[")
    with caplog.at_level(logging.WARNING):
        first = load_settings(path)
        load_settings(path)
    assert first.desired_retention == 0.9 and first.problems
    warned = [r.getMessage() for r in caplog.records if "cannot read" in r.getMessage()]
    assert len(warned) == 1 and str(path) in warned[0]


def test_a_problem_is_warned_once_per_process(isolated_home, caplog):
    path = config(isolated_home, "day_start_hour = 99\n")
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            load_settings(path)
    assert [r.getMessage() for r in caplog.records].count(
        f"config {path}: 'day_start_hour' = 99 is outside 0..23; using 23"
    ) == 1


def test_cli_warns_once_naming_the_key_and_carries_on(isolated_home):
    config(isolated_home, 'theme = 7\n[keys]\n"review.again" = 5\n')
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    result = subprocess.run(
        [sys.executable, "-m", "quiz", "stats"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("'review.again'") == 1 and result.stderr.count("'theme'") == 1


def test_saving_keeps_comments_unknown_keys_and_tables(isolated_home):
    path = config(isolated_home, USER_FILE)
    settings = load_settings(path)
    settings.new_per_day = 7
    settings.editor = "vim"
    save_settings(settings, path)
    text = path.read_text(encoding="utf-8")
    for kept in (
        "# my study settings",
        'lang = "en"  # English, please',
        "desired_retention = 0.85",
        "mystery_option = 3   # a key from a newer version: keep it",
        '"home.review" = "v"  # v for view',
        '"review.again" = 5',
        "[plugins.extra]",
        'colour = "teal"',
    ):
        assert kept in text, (kept, text)
    again = load_settings(path)
    assert (again.new_per_day, again.editor, again.desired_retention) == (7, "vim", 0.85)


def test_saving_over_a_broken_file_keeps_it_aside(isolated_home):
    path = config(isolated_home, "this is [not toml\n")
    save_settings(Settings(new_per_day=3), path)
    assert load_settings(path).new_per_day == 3
    assert path.with_suffix(".toml.bad").read_text(encoding="utf-8") == "this is [not toml\n"


def test_saved_values_are_clamped(isolated_home):
    path = isolated_home / "config.toml"
    save_settings(Settings(desired_retention=5.0, day_start_hour=-2), path)
    settings = load_settings(path)
    assert (settings.desired_retention, settings.day_start_hour) == (0.99, 0)
    assert settings.problems == []


async def test_app_starts_with_bad_theme_and_key_and_names_them(isolated_home):
    from quiz.tui.app import QuizApp, build_context

    config(isolated_home, 'theme = "no-such-theme"\n[keys]\n"review.again" = 5\n"home.review" = "v"\n')
    ctx = build_context("en", [])
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.theme == "textual-dark"
            notes = " ".join(str(n.message) for n in app._notifications)
            assert "'theme'" in notes and "no-such-theme" in notes and "'review.again'" in notes
            await pilot.press("v")  # the good remapping still applies
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ReviewScreen"
    finally:
        if ctx.services is not None:
            ctx.services.close()


async def test_settings_form_shows_the_clamped_value_after_saving(isolated_home):
    from textual.widgets import Input

    from quiz.tui.app import QuizApp, build_context

    path = config(isolated_home, "# keep this comment\nsurprise = 1\n")
    ctx = build_context("en", [])
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("comma")
            await pilot.pause()
            app.screen.query_one("#set-desired_retention", Input).value = "5"
            app.screen.query_one("#set-day_start_hour", Input).value = "40"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen.query_one("#set-desired_retention", Input).value == "0.99"
            assert app.screen.query_one("#set-day_start_hour", Input).value == "23"
    finally:
        if ctx.services is not None:
            ctx.services.close()
    text = path.read_text(encoding="utf-8")
    assert "desired_retention = 0.99" in text and "# keep this comment" in text and "surprise = 1" in text
