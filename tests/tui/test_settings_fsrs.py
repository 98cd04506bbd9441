"""The settings screen says which FSRS parameters are in use, and saving the form keeps fitted ones."""

from __future__ import annotations

from fsrs.scheduler import DEFAULT_PARAMETERS
from textual.widgets import Label

from quiz.srs.scheduler import FsrsScheduler
from quiz.tui.app import QuizApp

SIZE = (100, 32)
FITTED = [0.1, 0.3, 0.6, 2.0, *DEFAULT_PARAMETERS[4:]]


def line(app) -> str:
    return str(app.screen.query_one("#settings-fsrs", Label).render())


async def test_settings_show_default_parameters(ctx):
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        assert "FSRS parameters: the defaults" in line(app)


async def test_settings_show_fitted_parameters_and_saving_keeps_them(ctx):
    ctx.settings.fsrs_parameters = list(FITTED)
    ctx.services.scheduler = FsrsScheduler(parameters=FITTED)
    app = QuizApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        assert "fitted to your reviews" in line(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert ctx.services.scheduler.custom
        assert list(ctx.services.scheduler.fsrs.parameters) == FITTED
