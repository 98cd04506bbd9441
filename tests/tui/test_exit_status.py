"""A crash in the app ends the process with a non-zero status (and the store is still closed)."""

from __future__ import annotations

import sqlite3

import pytest
from textual.app import App

from tui.harness import make_context


def test_a_crash_exits_non_zero(tmp_path, monkeypatch):
    from quiz.tui import app as app_module

    ctx = make_context(tmp_path)
    monkeypatch.setattr(app_module, "build_context", lambda *a, **k: ctx)

    def crash(self):
        raise RuntimeError("a bug")

    monkeypatch.setattr(app_module.QuizApp, "on_mount", crash)
    monkeypatch.setattr(app_module.QuizApp, "run", lambda self, **kw: App.run(self, headless=True))
    with pytest.raises(SystemExit) as exit_info:
        app_module.run_app()
    assert exit_info.value.code == 1
    with pytest.raises(sqlite3.ProgrammingError):
        ctx.store.conn.execute("SELECT 1")  # closed


def test_a_clean_quit_exits_normally(tmp_path, monkeypatch):
    from quiz.tui import app as app_module

    ctx = make_context(tmp_path)
    monkeypatch.setattr(app_module, "build_context", lambda *a, **k: ctx)

    async def quit_at_once(self):
        self.exit()

    monkeypatch.setattr(app_module.QuizApp, "on_mount", quit_at_once)
    monkeypatch.setattr(app_module.QuizApp, "run", lambda self, **kw: App.run(self, headless=True))
    app_module.run_app()
