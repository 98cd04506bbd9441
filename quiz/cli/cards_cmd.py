"""`quiz cards`: find any card by text, module, state or tag; show its history; suspend, bury, forget."""

from __future__ import annotations

import click

from quiz.cli.common import lang_of, lang_option, load_bank_for, open_services_or_exit

ACTIONS = {
    "suspend": "Keep the card out of reviews until unsuspended (repeatable).",
    "unsuspend": "Let a suspended card come back (repeatable).",
    "bury": "Hide the card until the next study day (repeatable).",
    "unbury": "Show a buried card again today (repeatable).",
    "forget": "Reset the card to new; its history is kept (repeatable).",
}


def _when(value) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M") if value else "-"


def _action_options(fn):
    for name, help_text in reversed(ACTIONS.items()):
        fn = click.option(f"--{name}", f"do_{name}", multiple=True, metavar="CARD_ID", help=help_text)(fn)
    return fn


@click.command()
@click.argument("query", nargs=-1)
@click.option("--show", "show_id", metavar="CARD_ID", help="Show one card's text, schedule and review history.")
@_action_options
@lang_option
@click.pass_context
def cards(ctx: click.Context, query: tuple[str, ...], show_id: str | None, **actions: tuple[str, ...]) -> None:
    """List cards matching QUERY: words, module:ID, tag:T,
    state:new|learning|review|relearning|suspended|buried|leech."""
    from quiz.session.cards import card_view

    bank = load_bank_for(ctx)
    lang = lang_of(ctx)
    todo = [(name[3:], card_id) for name, ids in actions.items() for card_id in ids]
    for card_id in [c for _, c in todo] + ([show_id] if show_id else []):
        _view_or_exit(bank, card_id, lang, card_view)
    services = open_services_or_exit()
    try:
        if todo:
            from quiz.session.progress import Progress

            progress = Progress(services.store, services.clock, services.scheduler, services.limits)
            for name, card_id in todo:
                getattr(progress, name)(card_id)
                click.echo(f"{name}: {card_id}")
        elif show_id:
            _show(services, _view_or_exit(bank, show_id, lang, card_view))
        else:
            _list(services, bank, lang, " ".join(query))
    finally:
        services.close()


def _list(services, bank, lang: str, raw: str) -> None:
    from quiz.session.browse import card_rows, parse_query, search

    now = services.clock.now()
    rows = search(card_rows(bank, services.store, lang), parse_query(raw), now)
    for row in rows:
        status = ",".join(row.status(now))
        click.echo(f"{row.card_id:<40} {row.module:<22} {status:<20} due {_when(row.state.due):<16} {row.front[:60]}")
    click.echo(f"{len(rows)} card(s)", err=True)


def _show(services, view) -> None:
    from quiz.srs.cardstate import STATE_NAMES
    from quiz.srs.scheduler import RATING_NAMES

    state = services.store.card(view.card_id)
    history = services.store.history(view.card_id)
    click.echo(f"{view.card_id} · {view.module}\nQ: {view.front}\nA: {view.back}\n")
    flags = (" · suspended" if state.suspended else "") + (
        f" · buried until {_when(state.buried_until)}" if state.buried_until else ""
    )
    click.echo(
        f"{STATE_NAMES[state.state]} · reps {state.reps} · lapses {state.lapses} · next due {_when(state.due)}{flags}"
    )
    for row in history:
        undone = "  (undone)" if row["undone_at"] else ""
        click.echo(
            f"  {row['reviewed_at'][:16]}  {RATING_NAMES[row['rating']]:<5}  next in {row['interval_days'] or 0:.2f} d{undone}"
        )
    if not history:
        click.echo("  no reviews yet")


def _view_or_exit(bank, card_id: str, lang: str, card_view):
    try:
        view = card_view(bank, card_id, lang)
    except ValueError:
        view = None
    if view is None:
        raise click.BadParameter(f"no such card: {card_id} (list them with `quiz cards`)", param_hint="CARD_ID")
    return view
