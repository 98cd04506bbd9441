"""A screen base: shared bindings, language refresh and easy access to the app's context."""

from __future__ import annotations

import functools
import sqlite3
import time

from textual.binding import Binding
from textual.screen import Screen

from quiz.paths import database_file
from quiz.srs.errors import StoreError, explain, locked
from quiz.srs.locking import LockWait

RETRY_S = 0.2


def store_guard(method):
    """Show a database problem (locked, read-only, full, damaged) as a notification instead of crashing.

    When another program holds the database's write lock, a note says so and the method is tried
    again until the busy timeout has passed (the UI stays live meanwhile); other guarded actions of
    the screen wait their turn. The lock is met at a method's first write, so nothing is done twice.
    """

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if getattr(self, "_store_waiting", False):
            return None
        return _run_guarded(self, method, args, kwargs, None)

    return wrapper


def _raise_wait(note: str) -> None:
    raise LockWait(note)


def _run_guarded(screen, method, args, kwargs, deadline: float | None):
    store = screen.ctx.store
    previous = store.on_wait if store is not None else None
    if store is not None:
        store.on_wait = _raise_wait
    try:
        result = method(screen, *args, **kwargs)
    except LockWait as wait:
        now = time.monotonic()
        if deadline is None:
            deadline = now + store.busy_timeout_ms / 1000
            screen._store_waiting = True
            screen.notify(
                str(wait),
                title=screen.app.t("store_error"),
                severity="warning",
                timeout=store.busy_timeout_ms / 1000,
                markup=False,
            )
        if now >= deadline:
            screen._store_waiting = False
            screen.notify(
                str(locked(store.path, store.busy_timeout_ms / 1000)),
                title=screen.app.t("store_error"),
                severity="error",
                timeout=10,
                markup=False,
            )
            return None
        screen.set_timer(RETRY_S, lambda: _run_guarded(screen, method, args, kwargs, deadline))
        return None
    except (sqlite3.Error, StoreError) as exc:
        screen._store_waiting = False
        path = store.path if store is not None else database_file()
        screen.notify(
            str(explain(exc, path)), title=screen.app.t("store_error"), severity="error", timeout=10, markup=False
        )
        return None
    finally:
        if store is not None:
            store.on_wait = previous
    screen._store_waiting = False
    return result


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
