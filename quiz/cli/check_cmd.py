"""`quiz check ID [FILE]`: grade a file against an exercise; exit 0 pass, 1 not passed, 2 usage."""

from __future__ import annotations

import json
from pathlib import Path

import click

from quiz.cli.common import lang_option, load_bank_for
from quiz.textsafe import printable

SYMBOLS = {"pass": ("✓", "green"), "fail": ("✗", "red"), "error": ("!", "red"), "timeout": ("⏱", "yellow")}


def exercise_or_usage_error(bank, exercise_id: str):
    if exercise_id not in bank.exercises:
        known = ", ".join(sorted(bank.exercises)) or "none"
        raise click.UsageError(f"unknown exercise '{exercise_id}'; known: {known}")
    return bank.exercises[exercise_id]


def print_result(result, title: str) -> None:
    symbol, colour = SYMBOLS.get(result.status, ("?", "white"))
    click.echo(
        click.style(printable(f"{symbol} {title}: {result.status}"), fg=colour, bold=True)
        + f"  ({result.duration_ms} ms)"
    )
    for test in result.tests:
        s, c = SYMBOLS.get(test.status, ("?", "white"))
        click.echo(click.style(f"  {s} ", fg=c) + printable(test.name))
        if test.status != "pass" and test.message:
            click.echo(printable(f"      {test.message}"))
        if test.status != "pass" and test.output.strip():
            lines = printable(test.output.strip()).splitlines()
            click.echo(
                click.style("      output: ", dim=True)
                + "\n              ".join(lines[:8])
                + (" ..." if len(lines) > 8 else "")
            )
    if not result.tests and result.message:
        click.echo(printable(f"  {result.message}"))
    elif result.status != "pass":
        click.echo(printable(f"  {result.message}"))
    if result.protections:
        click.echo(click.style(printable("  fenced: " + ", ".join(result.protections)), dim=True))


def record(result) -> None:
    """Keep the attempt in the progress store; a store problem is reported but never fails the check."""
    from quiz.services import open_services
    from quiz.srs.store import StoreError

    from quiz.cli.common import note_waiting, store_problem

    try:
        services = open_services()
    except StoreError as exc:
        click.echo(f"warning: attempt not recorded: {exc}", err=True)
        return
    note_waiting(services)
    try:
        from quiz.session.progress import Progress

        Progress(services.store, services.clock, services.scheduler, services.limits).record_attempt(result)
    except Exception as exc:  # noqa: BLE001 - a store problem never changes the grade's exit status
        message = store_problem(exc)
        if message is None:
            raise
        click.echo(f"warning: attempt not recorded: {message}", err=True)
    finally:
        services.close()


@click.command()
@click.argument("exercise_id")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the results object (version 1 contract).")
@click.option("--no-record", is_flag=True, help="Do not record the attempt in your progress.")
@click.option(
    "--device",
    type=click.Choice(["auto", "cpu", "cuda"]),
    default="auto",
    show_default=True,
    help="Where Triton kernel checks run: the interpreter on the CPU, or compiled on a CUDA GPU.",
)
@lang_option
@click.pass_context
def check(ctx: click.Context, exercise_id: str, file: Path | None, as_json: bool, no_record: bool, device: str) -> None:
    """Grade FILE (default: your workspace copy) against EXERCISE_ID's checks."""
    from quiz import workspace
    from quiz.cli.common import lang_of
    from quiz.grader.runner import GraderWorker
    from quiz.grader.triton_support import INSTALL_HINT, uses_kernels
    from quiz.grader.triton_support import available as triton_available

    bank = load_bank_for(ctx)
    exercise = exercise_or_usage_error(bank, exercise_id)
    file = file or workspace.workspace_file(exercise_id)
    if not file.exists():
        raise click.UsageError(f"{file} does not exist; run 'quiz exercise start {exercise_id}' first")
    spec = exercise.model_dump()
    if uses_kernels(spec) and not triton_available():
        click.echo(INSTALL_HINT, err=True)
        ctx.exit(2)
    with GraderWorker() as worker:
        result = worker.grade(spec, bank.exercise_dirs[exercise_id], file, device=device, lang=lang_of(ctx))
    if not no_record:
        record(result)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2, allow_nan=True))
    else:
        print_result(result, exercise.title.get(lang_of(ctx)))
    ctx.exit(0 if result.status == "pass" else 1)
