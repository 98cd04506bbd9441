"""`quiz stats`: due today, reviews per day, true retention, states and per-module mastery."""

from __future__ import annotations

import json

import click

from quiz.cli.common import lang_of, lang_option, load_bank_for, open_services_or_exit
from quiz.textsafe import printable


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@lang_option
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Show progress: what is due, how much you reviewed, how much you remember."""
    from quiz.session.cards import content_cards
    from quiz.srs.stats import compute_stats

    bank = load_bank_for(ctx)
    services = open_services_or_exit()
    try:
        data = compute_stats(services.store, content_cards(bank), services.clock, services.limits)
    finally:
        services.close()
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    lang = lang_of(ctx)
    retention = (
        f"{data['retention_30d']:.1%} of {data['retention_reviews_30d']} reviews"
        if data["retention_30d"] is not None
        else "no reviews of learned cards yet"
    )
    click.echo(
        f"due today: {data['due_today']}   new left today: {data['new_left_today']}   reviewed today: {data['reviewed_today']}"
    )
    click.echo(f"reviews in all: {data['reviews_total']}   true retention (30 days): {retention}")
    click.echo("cards: " + ", ".join(f"{k} {v}" for k, v in data["by_state"].items()))
    days = data["reviews_by_day"][-14:]
    peak = max([d["count"] for d in days] + [1])
    click.echo("\nreviews, last 14 days:")
    for d in days:
        click.echo(f"  {d['date']}  {'█' * round(20 * d['count'] / peak):<20} {d['count']}")
    click.echo("\nmodule mastery (mastered/total, seen, due):")
    for module in bank.ordered_modules():
        m = data["by_module"].get(module.id)
        if not m:
            continue
        bar = "█" * round(10 * m["mastery"])
        click.echo(
            f"  {printable(module.name.get(lang))[:28]:<28} {bar:<10} {m['mastered']}/{m['total']}  seen {m['seen']}  due {m['due']}"
        )
