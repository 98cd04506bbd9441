"""Helpers shared by subcommands: the language and the bank for this invocation."""

from __future__ import annotations

import click


def lang_of(ctx: click.Context) -> str:
    root = ctx.find_root()
    lang = (root.obj or {}).get("lang")
    if lang:
        return lang
    from quiz.config import load_settings

    return load_settings().lang


def load_bank_for(ctx: click.Context, strict: bool = False):
    from quiz.content import load_default_bank

    root = ctx.find_root()
    return load_default_bank((root.obj or {}).get("content_dirs") or [], strict=strict)


def report_skipped(bank) -> None:
    """Tell the user which files were left out, on stderr, without stopping."""
    errors = bank.errors
    if errors:
        click.echo(
            f"warning: {len(errors)} content problem(s); run 'quiz validate' for details. First: {errors[0]}", err=True
        )


def _set_lang(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value:
        root = ctx.find_root()
        root.ensure_object(dict)
        root.obj["lang"] = value
    return value


lang_option = click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    expose_value=False,
    callback=_set_lang,
    help="Language (also accepted before the command).",
)


def store_problem(exc: BaseException) -> str | None:
    """The clear message for a progress-database error raised anywhere in a command, else None."""
    import sys

    from quiz.srs.errors import StoreError

    if isinstance(exc, StoreError):
        return str(exc)
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(exc, sqlite3.Error):
        from quiz import paths
        from quiz.srs.errors import explain

        return str(explain(exc, paths.database_file()))
    return None


def note_waiting(services) -> None:
    """Say on stderr when a write waits for another program's lock on the database."""
    services.store.on_wait = lambda note: click.echo(note, err=True)


def open_services_or_exit(**kwargs):
    """Open the progress store; a store problem becomes a clear message and exit status 1."""
    from quiz.services import open_services
    from quiz.srs.store import StoreError

    try:
        services = open_services(**kwargs)
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    note_waiting(services)
    return services
