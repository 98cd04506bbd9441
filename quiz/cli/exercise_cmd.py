"""`quiz exercise ...`: list, start, hint, reset, solution, and verify (for authors)."""

from __future__ import annotations

import click

from quiz.cli.check_cmd import exercise_or_usage_error
from quiz.cli.common import lang_of, lang_option, load_bank_for, open_services_or_exit
from quiz.textsafe import printable


@click.group()
def exercise() -> None:
    """Graded coding exercises: your copy lives in the workspace; `quiz check ID` grades it."""


@exercise.command("list")
@click.option("--module", "module_id", default=None, help="Only this module id.")
@lang_option
@click.pass_context
def list_exercises(ctx: click.Context, module_id: str | None) -> None:
    """Exercises with their status: not started, failing, passed."""
    bank = load_bank_for(ctx)
    services = open_services_or_exit()
    try:
        status = services.store.exercise_status()
    finally:
        services.close()
    from quiz.session.exercises import exercise_path

    from quiz.grader.triton_support import INSTALL_HINT, uses_kernels
    from quiz.grader.triton_support import available as triton_available

    lang = lang_of(ctx)
    no_triton = not triton_available()
    needs_triton = False
    for exercise_id in exercise_path(bank):  # module, then difficulty: the order to do them in
        ex = bank.exercises[exercise_id]
        if module_id and ex.module != module_id:
            continue
        state = status.get(ex.id, "not started")
        colour = {"passed": "green", "failing": "red"}.get(state, "white")
        note = ""
        if no_triton and uses_kernels(ex.model_dump()):
            needs_triton, note = True, click.style("  (needs Triton)", fg="yellow")
        click.echo(
            f"{ex.id:<28} {click.style(f'{state:<12}', fg=colour)} {ex.module:<26} {'*' * ex.difficulty:<3} {printable(ex.title.get(lang))}{note}"
        )
    if needs_triton:
        click.echo(click.style(f"\n(needs Triton): {INSTALL_HINT}", fg="yellow"))


@exercise.command()
@click.argument("exercise_id")
@lang_option
@click.pass_context
def start(ctx: click.Context, exercise_id: str) -> None:
    """Copy the starter into your workspace and show the task."""
    from quiz import workspace

    bank = load_bank_for(ctx)
    ex = exercise_or_usage_error(bank, exercise_id)
    path, created = workspace.start(bank, exercise_id)
    lang = lang_of(ctx)
    click.echo(click.style(printable(ex.title.get(lang)), bold=True) + "\n")
    click.echo(printable(ex.prompt.get(lang)) + "\n")
    click.echo(("created " if created else "already in your workspace: ") + str(path))
    click.echo(f"edit it, then run: quiz check {exercise_id}   (or: quiz watch {exercise_id})")


@exercise.command()
@click.argument("exercise_id")
@lang_option
@click.pass_context
def hint(ctx: click.Context, exercise_id: str) -> None:
    """Show one more hint each time."""
    bank = load_bank_for(ctx)
    ex = exercise_or_usage_error(bank, exercise_id)
    hints = ex.hints.get(lang_of(ctx))
    if not hints:
        click.echo("this exercise has no hints")
        return
    services = open_services_or_exit()
    try:
        key = f"hints/{exercise_id}"
        shown = min(int(services.store.get_setting(key, "0")) + 1, len(hints))
        services.store.set_setting(key, str(shown))
    finally:
        services.close()
    for i, text in enumerate(hints[:shown], 1):
        click.echo(printable(f"hint {i}/{len(hints)}: {text}"))
    if shown == len(hints):
        click.echo("(that was the last hint)")


@exercise.command()
@click.argument("exercise_id")
@click.option("--yes", is_flag=True, help="Do not ask before replacing your file.")
@click.pass_context
def reset(ctx: click.Context, exercise_id: str, yes: bool) -> None:
    """Put the starter back in your workspace (your old file is kept as a .bak)."""
    from quiz import workspace

    bank = load_bank_for(ctx)
    exercise_or_usage_error(bank, exercise_id)
    if not yes and workspace.workspace_file(exercise_id).exists():
        click.confirm("replace your file with the starter?", abort=True)
    path, saved = workspace.reset(bank, exercise_id)
    click.echo(f"reset {path}" + (f" (your previous file: {saved})" if saved else ""))


@exercise.command()
@click.argument("exercise_id")
@click.option("--yes", is_flag=True, help="Show it without asking, even before you pass.")
@click.pass_context
def solution(ctx: click.Context, exercise_id: str, yes: bool) -> None:
    """Show the reference solution (after a pass, or once you confirm)."""
    from quiz import workspace

    bank = load_bank_for(ctx)
    exercise_or_usage_error(bank, exercise_id)
    services = open_services_or_exit()
    try:
        passed = services.store.exercise_status().get(exercise_id) == "passed"
    finally:
        services.close()
    if not passed and not yes:
        click.confirm("you have not passed this exercise yet; show the solution anyway?", abort=True)
    click.echo(workspace.solution_text(bank, exercise_id))


@exercise.command()
@click.argument("exercise_ids", nargs=-1)
@lang_option
@click.pass_context
def verify(ctx: click.Context, exercise_ids: tuple[str, ...]) -> None:
    """For authors: the starter and every mutant must fail, the solution must pass."""
    from quiz.grader.runner import GraderWorker

    bank = load_bank_for(ctx)
    ids = list(exercise_ids) or sorted(bank.exercises)
    for eid in ids:
        exercise_or_usage_error(bank, eid)
    bad = 0
    lang = lang_of(ctx)
    with GraderWorker() as worker:
        for eid in ids:
            folder = bank.exercise_dirs[eid]
            spec = bank.exercises[eid].model_dump()
            files = (
                [("solution.py", "pass")]
                + [("starter.py", "not pass")]
                + [(f"mutants/{m.name}", "fail") for m in sorted((folder / "mutants").glob("*.py"))]
            )
            for name, want in files:
                result = worker.grade(spec, folder, folder / name, lang=lang)
                ok = result.status == want or (want == "not pass" and result.status != "pass")
                bad += not ok
                mark = click.style("ok  ", fg="green") if ok else click.style("BAD ", fg="red")
                click.echo(f"{mark}{eid}/{name}: {result.status} (want {want}) {result.duration_ms} ms")
                if not ok or name.startswith("mutants"):
                    for t in result.tests:
                        if t.status != "pass":
                            click.echo(f"      {t.name}: {t.message[:200]}")
            if len(files) < 4:
                bad += 1
                click.echo(click.style("BAD ", fg="red") + f"{eid}: needs at least two mutants")
    ctx.exit(1 if bad else 0)
