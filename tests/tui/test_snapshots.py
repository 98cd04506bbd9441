"""Snapshot tests of each screen's key states (fixed clock, a relative QUIZ_HOME so paths on screen are stable,
test pack)."""

from __future__ import annotations

import pytest

from quiz.tui.app import QuizApp
from tui.harness import make_context

SIZE = (100, 30)


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # each test its own folder; the screen shows the same relative path every run
    monkeypatch.setenv("QUIZ_HOME", "quiz-snapshot-home")
    ctx = make_context(tmp_path)
    yield QuizApp(ctx)
    ctx.services.close()


def test_home(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE)


def test_question_revealed(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["b", "enter", "space"])


def test_review_front_and_revealed(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["r", "space"])


def test_exercises_list(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["e"])


def test_exercise_screen(snap_compare, app):
    async def open_exercise(pilot):
        pilot.app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=open_exercise)


def test_stats(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["r", "space", "3", "space", "4", "escape", "t"])


def test_help(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["question_mark"])


def test_settings(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["comma"])


def test_quiz_setup_in_chinese(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["f2", "z"])


def test_card_browser(snap_compare, app):
    assert snap_compare(app, terminal_size=SIZE, press=["r", "space", "4", "escape", "c"])
