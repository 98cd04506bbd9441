"""A screen base: shared bindings, language refresh and easy access to the app's context."""

from __future__ import annotations

import functools
import sqlite3

from textual.binding import Binding
from textual.screen import Screen

from quiz.srs.store import StoreError


def store_guard(method):
    """Show a database problem (locked, read-only, damaged) as a notification instead of crashing."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.Error, StoreError) as exc:
            self.notify(str(exc), title=self.app.t("store_error"), severity="error", timeout=10, markup=False)
            return None

    return wrapper


class BaseScreen(Screen):
    BINDINGS = [Binding("escape", "back", "Back", id="back")]

    @property
    def ctx(self):
        return self.app.ctx

    @property
    def lang(self) -> str:
        return self.app.lang

    def t(self, key: str) -> str:
        return self.app.t(key)

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    async def apply_lang(self) -> None:
        """Redraw in the new language; screens holding typed input override this."""
        await self.recompose()
        self.on_lang_changed()

    def on_lang_changed(self) -> None:
        pass
