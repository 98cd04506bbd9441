"""`quiz backup`: a consistent copy of the progress database, safe while the app runs."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from quiz.cli.common import open_services_or_exit


@click.command()
@click.argument("dest", required=False, type=click.Path(dir_okay=True, path_type=Path))
def backup(dest: Path | None) -> None:
    """Copy the progress database to DEST (a file or folder; default: the backups folder)."""
    from quiz import paths

    services = open_services_or_exit()
    try:
        name = f"progress-{datetime.now():%Y-%m-%d-%H%M%S}.sqlite3"
        if dest is None:
            dest = paths.data_dir() / "backups" / name
        elif dest.is_dir():
            dest = dest / name
        if dest.resolve() == services.store.path.resolve():
            raise click.UsageError("the backup cannot overwrite the database itself")
        services.store.backup(dest)
    finally:
        services.close()
    click.echo(f"backed up to {dest}")
