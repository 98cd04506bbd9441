"""Snapshots of the main screens at 80x24 and 120x40, in English and Chinese, over a small fixed pack."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quiz.session.quiz import QuizItem
from quiz.tui.app import QuizApp
from tui.harness import FIXTURES, make_context, seed_history

HOME = Path("/tmp/quiz-snapshot-home")
PACK = [FIXTURES / "snapshot-pack", FIXTURES / "exercises"]
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.fixture(params=["en", "zh"])
def lang(request):
    return request.param


@pytest.fixture(params=list(SIZES))
def size(request):
    return SIZES[request.param]


@pytest.fixture
def make_app(tmp_path, monkeypatch, lang):
    shutil.rmtree(HOME, ignore_errors=True)
    monkeypatch.setenv("QUIZ_HOME", str(HOME))
    made = []

    def build(history: bool = False) -> QuizApp:
        from quiz.content.loader import load_bank

        ctx = make_context(tmp_path, lang=lang)
        ctx.bank = load_bank(PACK)
        if history:
            seed_history(ctx)
        made.append(ctx)
        return QuizApp(ctx)

    yield build
    for ctx in made:
        ctx.services.close()


def test_home(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size)


def test_review_revealed(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size, press=["r", "space"])


def test_quiz_revealed(snap_compare, make_app, size):
    async def answer(pilot):
        from quiz.tui.screens.quiz_session import QuizSessionScreen

        pilot.app.push_screen(
            QuizSessionScreen([QuizItem("question", "q1"), QuizItem("choice", "q1", "who-gets-grad")])
        )
        await pilot.pause()
        await pilot.press(*"grad_fn and the chain rule")
        await pilot.press("ctrl+r")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=answer)


def test_exercise(snap_compare, make_app, size):
    async def open_exercise(pilot):
        pilot.app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=open_exercise)


def test_stats(snap_compare, make_app, size):
    assert snap_compare(make_app(history=True), terminal_size=size, press=["t"])


def test_help(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size, press=["question_mark"])
