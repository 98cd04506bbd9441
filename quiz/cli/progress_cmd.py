"""`quiz progress export|import`: carry the review log between machines through any synced folder."""

from __future__ import annotations

from pathlib import Path

import click

from quiz.cli.common import open_services_or_exit


@click.group()
def progress() -> None:
    """Move progress between machines: export the review log, import (merge) another's."""


@progress.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def export_progress(file: Path) -> None:
    """Write the review log to FILE (JSON lines)."""
    from quiz.srs.sync import export_log

    services = open_services_or_exit()
    try:
        try:
            count = export_log(services.store, file)
        except OSError as exc:
            raise click.ClickException(f"cannot write {file} ({exc.strerror or exc})") from None
    finally:
        services.close()
    click.echo(f"exported {count} review(s) to {file}")


@progress.command("import")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
def import_progress(file: Path) -> None:
    """Merge the reviews in FILE into this machine's progress; running it again changes nothing."""
    from quiz.srs.sync import SyncFileError, import_log

    services = open_services_or_exit()
    try:
        try:
            result = import_log(services.store, file, services.scheduler)
        except SyncFileError as exc:
            raise click.ClickException(f"{exc}; nothing was imported") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"cannot read {file} ({exc}); nothing was imported") from None
    finally:
        services.close()
    click.echo(
        f"imported {result.added} new review(s), {result.skipped} already here, "
        f"{result.undone} undone elsewhere; {result.cards} card(s) rescheduled"
    )
