"""`quiz validate`: check content folders and print one `path:line:col` line per problem."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from quiz.cli.common import load_bank_for


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--strict", is_flag=True, help="Treat warnings (e.g. a missing translation) as errors.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of lines.")
@click.option(
    "--dunders",
    is_flag=True,
    help="Also report dunder names (__call__) written outside code, which Markdown shows as bold.",
)
@click.pass_context
def validate(ctx: click.Context, paths: tuple[Path, ...], strict: bool, as_json: bool, dunders: bool) -> None:
    """Check content: the built-in bank and your packs, or only PATHS (folders of the same format).

    Exit status: 0 clean, 1 any error, 2 usage error.
    """
    for p in paths:
        if not p.exists():
            raise click.UsageError(f"no such file or folder: {p}")
    if paths:
        bank = _load_paths(list(paths), strict)
    else:
        bank = load_bank_for(ctx, strict=strict)
    if dunders:
        from quiz.content.dunders import dunder_problems

        keep = [str(p.resolve()) for p in paths]
        extra = [
            p
            for p in dunder_problems(bank, strict)
            if not keep or any(str(Path(p.path).resolve()).startswith(k) for k in keep)
        ]
        bank.problems = sorted(bank.problems + extra, key=lambda p: (p.path, p.line, p.col))
    errors, warnings = bank.errors, bank.warnings
    code = _pack_code(bank)
    if as_json:
        out = {
            "ok": not errors,
            "questions": len(bank.questions),
            "exercises": len(bank.exercises),
            "modules": len(bank.modules),
            "errors": len(errors),
            "warnings": len(warnings),
            "problems": [p.to_dict() for p in bank.problems],
            "code": [str(p) for p in code],
        }
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        for problem in bank.problems:
            click.echo(str(problem), err=False)
        for path in code:
            click.echo(
                f"{path}:1:1: note: Python code that runs when its exercise is graded (fenced: it may write "
                "only to its own scratch folder, use no network, and signal or trace nothing outside)"
            )
        summary = f"{len(bank.questions)} questions, {len(bank.exercises)} exercises, {len(bank.modules)} modules: {len(errors)} error(s), {len(warnings)} warning(s)"
        click.echo(summary, err=True)
    sys.exit(1 if errors else 0)


def _pack_code(bank) -> list[Path]:
    """checks.py and solution.py of every exercise outside the built-in bank: a pack that ships them ships code."""
    from quiz import paths as app_paths

    builtin = app_paths.builtin_content_dir().resolve()
    found = []
    for folder in bank.exercise_dirs.values():
        folder = Path(folder).resolve()
        if folder == builtin or builtin in folder.parents:
            continue
        found += [folder / name for name in ("checks.py", "solution.py") if (folder / name).is_file()]
    return sorted(found)


def _load_paths(paths: list[Path], strict: bool):
    """Validate on top of the built-in bank (so ids resolve), then keep only the named paths' problems."""
    from quiz import paths as app_paths
    from quiz.content.loader import load_bank

    builtin = app_paths.builtin_content_dir().resolve()
    wanted = [p.resolve() for p in paths]
    roots = [builtin]
    for p in wanted:
        folder = p if p.is_dir() else p.parent
        if not any(folder == r or r in folder.parents for r in roots):
            roots.append(folder)
    bank = load_bank(roots, strict=strict, builtin=builtin)
    keep = [str(p) for p in wanted]
    bank.problems = [pr for pr in bank.problems if any(str(Path(pr.path).resolve()).startswith(k) for k in keep)]
    return bank
