"""`quiz export anki`: the question bank as an Anki deck package."""

from __future__ import annotations

from pathlib import Path

import click

from quiz.cli.common import load_bank_for, report_skipped


@click.group()
def export() -> None:
    """Export the question bank to other apps."""


@export.command("anki")
@click.option(
    "--lang",
    "lang",
    type=click.Choice(["zh", "en", "both"]),
    default=None,
    help="Language of the cards (default: the app's language).",
)
@click.option("--module", "modules", multiple=True, metavar="ID", help="Only this module (repeatable).")
@click.option(
    "--source-url",
    default=None,
    metavar="URL",
    help="Link each note to URL/<folder>/<file> (for example the content folder of a repository).",
)
@click.argument("out", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def anki(
    ctx: click.Context, lang: str | None, modules: tuple[str, ...], source_url: str | None, out: Path | None
) -> None:
    """Write OUT.apkg (default: ai-infra-interview.apkg) for Anki and AnkiDroid; importing again updates notes."""
    from quiz.cli.common import lang_of
    from quiz.export.anki import export_anki

    bank = load_bank_for(ctx)
    report_skipped(bank)
    unknown = [m for m in modules if m not in bank.modules]
    if unknown:
        raise click.UsageError(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(sorted(bank.modules))}")
    out = out or Path("ai-infra-interview.apkg")
    try:
        summary = export_anki(bank, out, lang or lang_of(ctx), list(modules), source_url)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out} ({exc.strerror or exc})") from None
    click.echo(f"wrote {summary.notes} note(s) in {summary.decks} deck(s) to {summary.path}")
