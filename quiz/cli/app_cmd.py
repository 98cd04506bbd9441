"""Opening the Textual app (the default command)."""

from __future__ import annotations

import click


def open_app(ctx: click.Context, screen: str | None = None) -> None:
    import gc

    gc.disable()  # start-up allocates many long-lived objects; the app re-enables GC after its first frame
    try:
        from quiz.tui.app import run_app
    except ImportError as exc:  # the TUI is not built in this version yet
        raise click.ClickException(f"the app cannot start: {exc}") from exc
    root = ctx.find_root().obj or {}
    run_app(lang=root.get("lang"), content_dirs=root.get("content_dirs") or [], screen=screen)
