"""`quiz list`: the bank as a table or JSON."""

from __future__ import annotations

import json

import click

from quiz.cli.common import lang_of, lang_option, load_bank_for, report_skipped
from quiz.textsafe import printable


@click.command("list")
@click.option("--module", "module_id", default=None, help="Only this module id.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of objects.")
@lang_option
@click.pass_context
def list_questions(ctx: click.Context, module_id: str | None, as_json: bool) -> None:
    """List questions: number, id, module, title, and counts of cards, choices and exercises."""
    bank = load_bank_for(ctx)
    report_skipped(bank)
    if module_id and module_id not in bank.modules:
        raise click.UsageError(
            f"unknown module '{module_id}'; known: {', '.join(m.id for m in bank.ordered_modules())}"
        )
    lang = lang_of(ctx)
    rows = []
    for q in bank.ordered_questions(module_id):
        rows.append(
            {
                "number": q.number,
                "id": q.id,
                "module": q.module,
                "title": q.question.get(lang),
                "langs": [code for code in ("zh", "en") if getattr(q.question, code) and getattr(q.answer, code)],
                "difficulty": q.difficulty,
                "cards": len(q.cards),
                "choices": len(q.choices),
                "exercises": len(bank.exercises_for(q.id)),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    if not rows:
        click.echo("no questions")
        return
    for r in rows:
        num = f"{r['number']:>3}" if r["number"] else "  -"
        title = r["title"] if len(r["title"]) <= 60 else r["title"][:59] + "…"
        click.echo(
            printable(
                f"{num}  {r['id']:<34} {r['module']:<26} {title}  [cards {r['cards']}, choices {r['choices']}, ex {r['exercises']}]"
            )
        )
    click.echo(f"{len(rows)} question(s)", err=True)
