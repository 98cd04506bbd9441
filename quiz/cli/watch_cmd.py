"""`quiz watch ID`: re-grade the workspace file on every save, with one warm worker for the session."""

from __future__ import annotations

import queue
import select
import sys
import threading

import click

from quiz.cli.check_cmd import exercise_or_usage_error, print_result, record
from quiz.cli.common import lang_of, lang_option, load_bank_for
from quiz.textsafe import printable

KEYS = "keys: Enter re-check · h hint · r reset · n next exercise · q quit"


def _watch_thread(path, events: queue.Queue, stop: threading.Event) -> None:
    from watchfiles import watch

    for _changes in watch(path.parent, stop_event=stop, debounce=200, recursive=False,
                          watch_filter=lambda _change, name: name == str(path)):
        events.put("changed")


@click.command()
@click.argument("exercise_id")
@lang_option
@click.pass_context
def watch(ctx: click.Context, exercise_id: str) -> None:
    """Grade EXERCISE_ID each time you save your workspace file (like rustlings watch)."""
    from quiz import workspace
    from quiz.grader.runner import GraderWorker

    bank = load_bank_for(ctx)
    lang = lang_of(ctx)
    order = sorted(bank.exercises, key=lambda e: (bank.modules[bank.exercises[e].module].number if bank.exercises[e].module in bank.modules else 999, e))
    current = exercise_or_usage_error(bank, exercise_id).id
    hints_shown = 0
    with GraderWorker() as worker:
        while True:
            ex = bank.exercises[current]
            path, _ = workspace.start(bank, current)
            click.echo(click.style(printable(f"\n{ex.title.get(lang)}"), bold=True) + f"\nwatching {path}\n{KEYS}")
            events: queue.Queue = queue.Queue()
            stop = threading.Event()
            thread = threading.Thread(target=_watch_thread, args=(path, events, stop), daemon=True)
            thread.start()
            events.put("changed")
            action = None
            try:
                while action is None:
                    try:
                        events.get(timeout=0.1)
                        result = worker.grade(ex.model_dump(), bank.exercise_dirs[current], path)
                        record(result)
                        print_result(result, ex.title.get(lang))
                        if result.status == "pass":
                            click.echo(click.style("passed! press n for the next exercise", fg="green"))
                        click.echo(KEYS)
                    except queue.Empty:
                        pass
                    key = _key()
                    if key is None:
                        continue
                    if key == "q" or key == "eof":
                        action = "quit"
                    elif key == "":
                        events.put("changed")
                    elif key == "h":
                        hints = ex.hints.get(lang)
                        hints_shown = min(hints_shown + 1, len(hints))
                        for i, text in enumerate(hints[:hints_shown], 1):
                            click.echo(printable(f"hint {i}/{len(hints)}: {text}"))
                        if not hints:
                            click.echo("no hints for this exercise")
                    elif key == "r":
                        _, saved = workspace.reset(bank, current)
                        click.echo("reset to the starter" + (f"; your file was kept as {saved}" if saved else ""))
                    elif key == "n":
                        action = "next"
            finally:
                stop.set()
            if action == "quit":
                return
            index = order.index(current)
            if index + 1 >= len(order):
                click.echo("that was the last exercise")
                return
            current, hints_shown = order[index + 1], 0


def _key() -> str | None:
    """A line typed on stdin, 'eof' at end of input, or None when nothing was typed yet."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], 0.1)
    except (OSError, ValueError):
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    if not line:
        return "eof"
    return line.strip().lower()
