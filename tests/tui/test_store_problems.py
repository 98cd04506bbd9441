"""The app with a locked or read-only progress database: a note while waiting, a clear message, nothing lost."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess

import pytest

from quiz.tui.app import QuizApp

SIZE = (100, 32)


def messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def until(pilot, condition, tries: int = 60) -> bool:
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause(0.1)
    return condition()


def hold_lock(path):
    other = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


async def test_a_rating_waits_for_the_lock_with_a_note_and_is_saved_once(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        first = app.screen.current[0].card_id
        other = hold_lock(ctx.store.path)
        try:
            await pilot.press("space", "3")
            assert await until(pilot, lambda: any("waiting up to" in m for m in messages(app)))
            assert app.is_running and ctx.store.review_count() == 0
            await pilot.press("3", "4")  # ignored while the first rating waits
        finally:
            other.rollback()
            other.close()
        assert await until(pilot, lambda: ctx.store.review_count() == 1)
        await pilot.pause(0.5)
        assert ctx.store.review_count() == 1
        assert ctx.store.card(first).reps == 1
        assert not any("stayed locked" in m for m in messages(app))


async def test_a_lock_held_past_the_timeout_is_a_message_and_the_card_stays(ctx):
    ctx.store.busy_timeout_ms = 1200
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        first = app.screen.current[0].card_id
        other = hold_lock(ctx.store.path)
        try:
            await pilot.press("space", "3")
            assert await until(pilot, lambda: any("stayed locked for more than 1.2 s" in m for m in messages(app)))
        finally:
            other.rollback()
            other.close()
        assert app.is_running and app.screen.__class__.__name__ == "ReviewScreen"
        assert ctx.store.review_count() == 0
        assert app.screen.current[0].card_id == first  # not acknowledged: the card is still shown
        await pilot.press("3")
        await pilot.pause()
        assert ctx.store.review_count() == 1


async def test_a_read_only_database_is_a_message_not_a_crash(ctx):
    from quiz.srs.store import Store

    path = ctx.store.path
    ctx.store.close()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    ctx.services.store = Store.open(path)  # opened while the file is read-only
    try:
        app = QuizApp(ctx)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("space", "3")
            await pilot.pause()
            assert app.is_running and app.screen.__class__.__name__ == "ReviewScreen"
            assert any("read-only" in m and str(path) in m for m in messages(app)), messages(app)
            assert not any("Move or rename" in m for m in messages(app))
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    assert ctx.store.review_count() == 0
