"""`quiz review --plain`: line-based review that also works with piped stdin."""

from __future__ import annotations

import sys
import time

import click

from quiz.cli.common import lang_of, lang_option, load_bank_for, open_services_or_exit, report_skipped
from quiz.srs.scheduler import RATING_NAMES, format_interval
from quiz.textsafe import printable

HELP_LINE = "  u undo   s suspend   b bury   q quit"


@click.command()
@click.option("--plain", is_flag=True, help="Line-based review in the terminal (no full-screen app); works with pipes.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N cards.")
@click.option("--module", "modules", multiple=True, help="Only these module ids (repeatable).")
@lang_option
@click.pass_context
def review(ctx: click.Context, plain: bool, limit: int | None, modules: tuple[str, ...]) -> None:
    """Review the cards due today (FSRS); 1-4 rate: again, hard, good, easy."""
    bank = load_bank_for(ctx)
    report_skipped(bank)
    unknown = [m for m in modules if m not in bank.modules]
    if unknown:
        raise click.UsageError(f"unknown module(s): {', '.join(unknown)}")
    if not plain:
        from quiz.cli.app_cmd import open_app

        open_app(ctx, screen="review")
        return
    services = open_services_or_exit(backup=True)
    try:
        run_plain(services, bank, lang_of(ctx), list(modules) or None, limit)
    finally:
        services.close()


def _read(prompt: str) -> str | None:
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo()
        return None
    return line.strip().lower()


def run_plain(services, bank, lang: str, modules: list[str] | None, limit: int | None) -> None:
    from quiz.session.review import ReviewSession

    session = ReviewSession(
        services.store,
        bank,
        services.clock,
        services.scheduler,
        services.limits,
        lang=lang,
        modules=modules,
        interleaved=services.settings.interleave_modules,
    )
    started = time.monotonic()
    quit_early = False
    while limit is None or session.reviewed < limit:
        item = session.next_card()
        if item is None:
            break
        state, view = item
        q = session.queue
        label = "new" if state.is_new else "due"
        click.echo(printable(f"\n[{label}] {len(q.due)} due, {len(q.new)} new left · {view.module} · {view.card_id}"))
        click.echo(click.style("Q: ", bold=True) + printable(view.front))
        shown_at = time.monotonic()
        if _read("(Enter shows the answer, q quits) ") in (None, "q"):
            quit_early = True
            break
        click.echo(click.style("A:", bold=True))
        click.echo(printable(view.back))
        preview = session.preview(state)
        choices = "   ".join(f"{r} {RATING_NAMES[r]} ({format_interval(preview[r])})" for r in (1, 2, 3, 4))
        while True:
            answer = _read(f"{choices}\n{HELP_LINE}\n> ")
            if answer is None or answer == "q":
                quit_early = True
                break
            if answer in ("1", "2", "3", "4"):
                session.rate(state, int(answer), int((time.monotonic() - shown_at) * 1000))
                break
            if answer == "u":
                from quiz.srs.undo import describe

                action = session.undo()
                click.echo(f"undone: {describe(action)}" if action else "nothing to undo")
                break
            if answer == "s":
                session.suspend(state)
                click.echo(f"suspended {state.card_id}")
                break
            if answer == "b":
                session.bury(state)
                click.echo(f"buried {state.card_id} until tomorrow")
                break
            click.echo("type 1, 2, 3 or 4 (or u, s, b, q)")
        if quit_early:
            break
        if state.leech is False and services.store.card(state.card_id).leech:
            click.echo(
                click.style(
                    f"leech: {state.card_id} has lapsed 8 times; consider rewriting or suspending it", fg="yellow"
                )
            )
    _summary(session, time.monotonic() - started)


def _summary(session, seconds: float) -> None:
    session.refresh()
    r = session.ratings
    later, _ = session.learning_later_today()
    mins, secs = divmod(int(seconds), 60)
    tail = f"; {later} learning card(s) come back later today" if later else ""
    click.echo(
        f"\nreviewed {session.reviewed} card(s) (again {r[1]}, hard {r[2]}, good {r[3]}, easy {r[4]}) in {mins}m{secs:02d}s; "
        f"left today: {len(session.queue.due)} due, {len(session.queue.new)} new{tail}"
    )
