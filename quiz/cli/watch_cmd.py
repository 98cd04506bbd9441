"""`quiz watch [ID]`: re-grade the workspace file on every save, with one warm worker; single keys; resumes."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import select
import sys
import threading

import click

from quiz.cli.check_cmd import exercise_or_usage_error, print_result, record
from quiz.cli.common import lang_of, lang_option, load_bank_for
from quiz.textsafe import printable

KEYS = "keys: Enter re-check · h hint · r reset · n next exercise · q quit"
LAST_KEY = "watch.last_exercise"


def render(text: str) -> str:
    """Markdown as a terminal shows it: `code` and **bold** styled, code fences dropped."""
    text = re.sub(r"^```[a-zA-Z0-9_-]*\s*$", "", text, flags=re.MULTILINE)
    text = re.sub(r"\*\*([^*]+)\*\*", lambda m: click.style(m.group(1), bold=True), text)
    return re.sub(r"`([^`]+)`", lambda m: click.style(m.group(1), fg="cyan"), text)


def _watch_thread(path, events: queue.Queue, stop: threading.Event) -> None:
    from watchfiles import watch

    for _changes in watch(
        path.parent,
        stop_event=stop,
        debounce=200,
        recursive=False,
        watch_filter=lambda _change, name: name == str(path),
    ):
        events.put("changed")


def _store_call(fn, default=None):
    """Run fn(store); a missing or broken store never stops watching."""
    from quiz.services import open_services
    from quiz.srs.store import StoreError

    try:
        services = open_services()
    except StoreError:
        return default
    try:
        return fn(services.store)
    except Exception:  # noqa: BLE001 - progress is a convenience here
        return default
    finally:
        services.close()


def resume_point(bank) -> str | None:
    """Where `quiz watch` with no id starts: the last exercise watched unless passed, else the next unfinished."""
    from quiz.session.exercises import exercise_path, next_unfinished

    last, status = _store_call(lambda s: (s.get_setting(LAST_KEY), s.exercise_status()), (None, {}))
    if last in bank.exercises and status.get(last) != "passed":
        return last
    path = exercise_path(bank)
    return next_unfinished(bank, status, last if last in bank.exercises else None) or (path[0] if path else None)


@contextlib.contextmanager
def single_keys():
    """Read keys without Enter when stdin is a terminal; line by line otherwise (pipes, tests)."""
    if not sys.stdin.isatty():
        yield False
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def show_task(ex, lang: str, path) -> None:
    click.echo(click.style(printable(f"\n{ex.title.get(lang)}"), bold=True) + f"  ({ex.id})")
    click.echo(render(printable(ex.prompt.get(lang))))
    click.echo(printable(f"\nwatching {path}") + f"\n{KEYS}")


@click.command()
@click.argument("exercise_id", required=False)
@lang_option
@click.pass_context
def watch(ctx: click.Context, exercise_id: str | None) -> None:
    """Grade EXERCISE_ID each time you save your workspace file (like rustlings watch); no id: resume."""
    from quiz import workspace
    from quiz.grader.runner import GraderWorker
    from quiz.session.exercises import next_unfinished

    bank = load_bank_for(ctx)
    lang = lang_of(ctx)
    if exercise_id is None:
        exercise_id = resume_point(bank)
        if exercise_id is None:
            raise click.UsageError("there are no exercises")
    current = exercise_or_usage_error(bank, exercise_id).id
    hints_shown = 0
    with GraderWorker() as worker, single_keys() as raw:
        while True:
            ex = bank.exercises[current]
            path, _ = workspace.start(bank, current)
            _store_call(lambda s, exercise=current: s.set_setting(LAST_KEY, exercise))
            show_task(ex, lang, path)
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
                        result = worker.grade(ex.model_dump(), bank.exercise_dirs[current], path, lang=lang)
                        record(result)
                        print_result(result, ex.title.get(lang))
                        if result.status == "pass":
                            click.echo(click.style("passed! press n for the next exercise", fg="green"))
                        click.echo(KEYS)
                    except queue.Empty:
                        pass
                    key = _key(raw)
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
                            click.echo(f"hint {i}/{len(hints)}: {render(printable(text))}")
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
            status = _store_call(lambda s: s.exercise_status(), {})
            following = next_unfinished(bank, status, current)
            if following is None:
                click.echo(click.style("every exercise passed!", fg="green"))
                return
            current, hints_shown = following, 0


_pending = bytearray()  # bytes read from a piped stdin that do not yet end a line


def _next_line() -> str | None:
    if b"\n" not in _pending:
        return None
    line, _, rest = bytes(_pending).partition(b"\n")
    _pending[:] = rest
    return line.decode(errors="replace").strip().lower()


def _key(raw: bool) -> str | None:
    """A key (raw terminal) or a line typed on stdin; 'eof' at end of input; None when nothing was typed yet.
    Lines are read from the descriptor, not through Python's buffer, so two lines that arrive together are
    both seen (a buffered readline would hold the second until more input came)."""
    if not raw:
        line = _next_line()
        if line is not None:
            return line
    try:
        ready, _, _ = select.select([sys.stdin], [], [], 0.1)
    except (OSError, ValueError):
        return None
    if not ready:
        return None
    if raw:
        char = os.read(sys.stdin.fileno(), 1).decode(errors="replace")
        if not char:
            return "eof"
        return "" if char in "\r\n" else char.lower()
    chunk = os.read(sys.stdin.fileno(), 4096)
    if not chunk:
        if _pending:
            _pending.extend(b"\n")
            return _next_line()
        return "eof"
    _pending.extend(chunk)
    return _next_line()
