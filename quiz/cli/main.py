"""The `quiz` entry point: global options, and the subcommands by name."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from quiz.cli.lazy import LazyGroup

COMMANDS = {
    "validate": ("quiz.cli.validate_cmd:validate", "Check content files; print path:line:col problems."),
    "list": ("quiz.cli.list_cmd:list_questions", "List the question bank."),
    "review": ("quiz.cli.review_cmd:review", "Review due cards (spaced repetition); --plain for line mode."),
    "cards": ("quiz.cli.cards_cmd:cards", "Find cards; show history; suspend, unsuspend, bury, forget."),
    "stats": ("quiz.cli.stats_cmd:stats", "Progress: due, reviews per day, retention, mastery."),
    "backup": ("quiz.cli.backup_cmd:backup", "Copy the progress database somewhere safe."),
    "exercise": ("quiz.cli.exercise_cmd:exercise", "Coding exercises: list, start, hint, reset, solution."),
    "check": ("quiz.cli.check_cmd:check", "Grade your exercise file; exit 0 when it passes."),
    "watch": ("quiz.cli.watch_cmd:watch", "Re-grade an exercise on every save."),
    "progress": ("quiz.cli.progress_cmd:progress", "Export the review log, or import another machine's."),
    "export": ("quiz.cli.export_cmd:export", "Export cards to other apps: quiz export anki."),
    "optimize": ("quiz.cli.optimize_cmd:optimize", "Fit FSRS parameters to your own reviews (--reset: defaults)."),
}


class QuizGroup(LazyGroup):
    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Where progress and settings live (QUIZ_HOME moves both), and how to leave the app."""
        from quiz import paths

        with formatter.section("Files"):
            formatter.write_dl(
                [
                    ("progress", str(paths.database_file())),
                    ("workspace", str(paths.workspace_dir())),
                    ("settings", str(paths.config_file())),
                ]
            )
        formatter.write_paragraph()
        formatter.write_text("In the app: ? shows every key, Esc goes back, q (home) or ctrl+q quits.")


@click.group(
    cls=QuizGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    help="Language of content and messages (default: config, then locale).",
)
@click.option(
    "--content",
    "content_dirs",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Add a folder of your own questions (repeatable; QUIZ_CONTENT_PATH works too).",
)
@click.version_option(package_name="ai-infra-quiz", prog_name="quiz")
@click.pass_context
def cli(ctx: click.Context, lang: str | None, content_dirs: tuple[Path, ...]) -> None:
    """AI-infrastructure interview trainer. With no command, opens the app."""
    from quiz.paths import home_problem

    problem = home_problem()
    if problem is not None:
        click.echo(f"error: {problem}", err=True)
        ctx.exit(1)
    ctx.ensure_object(dict)
    ctx.obj["lang"] = lang
    ctx.obj["content_dirs"] = list(content_dirs)
    if ctx.invoked_subcommand is None:
        from quiz.cli.app_cmd import open_app

        open_app(ctx)


def main() -> None:
    try:
        cli(prog_name="quiz")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # the command boundary: a progress-database problem is a message, not a traceback
        from quiz.cli.common import store_problem

        message = store_problem(exc)
        if message is None:
            raise
        click.echo(f"error: {message}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
