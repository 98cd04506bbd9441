"""An exercise: the prompt, an editor on the workspace file (kept in step with the disk), checks on the shared grader."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Header, LoadingIndicator, Markdown, Static

from quiz import workspace
from quiz.content.dunders import escape_dunders
from quiz.tui.grader_service import GradeFinished, GraderReady
from quiz.tui.plain import markup, plain
from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.screens.confirm import ConfirmScreen
from quiz.tui.screens.file_sync import FileSync
from quiz.tui.widgets.code_editor import CodeEditor
from quiz.tui.widgets.keybar import KeyBar

ICONS = {"pass": "✓", "fail": "✗", "error": "!", "timeout": "⏱"}
COLOURS = {"pass": "green", "fail": "red", "error": "red", "timeout": "yellow"}
WATCH_SECONDS = 1.0


class ExerciseScreen(FileSync, BaseScreen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", priority=True),
        Binding("ctrl+r", "run_checks", "Run checks", id="exercise.run", priority=True),
        Binding("ctrl+s", "save", "Save", id="exercise.save", priority=True),
        Binding("ctrl+g", "hint", "Hint", id="exercise.hint", priority=True),
        Binding("ctrl+t", "reset", "Reset", id="exercise.reset", priority=True),
        Binding("ctrl+o", "solution", "Solution", id="exercise.solution", priority=True),
        Binding("ctrl+b", "external_editor", "$EDITOR", id="exercise.editor", priority=True),
        Binding("ctrl+n", "next_exercise", "Next exercise", id="exercise.next", priority=True, show=False),
    ]

    def __init__(self, exercise_id: str):
        super().__init__()
        self.exercise_id = exercise_id
        self.hints_shown = 0
        self.running = False
        self.waiting = False  # a check waits for the grader to finish starting
        self.cancelled = False
        self.init_file_sync()

    @property
    def exercise(self):
        return self.ctx.bank.exercises[self.exercise_id]

    @property
    def grader(self):
        return self.app.grader_service

    def compose(self) -> ComposeResult:
        self.path, _ = workspace.start(self.ctx.bank, self.exercise_id)
        self.disk_text, self.disk_stamp = self._read_disk()
        yield Header()
        with Horizontal():
            with VerticalScroll(id="exercise-left"):
                yield Markdown(id="exercise-prompt", classes="markdown")
                yield Markdown(id="exercise-hints", classes="markdown")
            with Vertical(id="exercise-right"):
                yield Static(plain(self.path), id="exercise-file", classes="muted")
                yield CodeEditor.code_editor(self.disk_text, language="python", id="editor")
                yield LoadingIndicator(id="grading", classes="hidden")
                with VerticalScroll(id="results-scroll"):
                    yield Static(id="results")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_text()
        self.clear_results()
        self.query_one("#editor").focus()
        self.grader.subscribe(self)
        self.grader.start()
        self.set_interval(WATCH_SECONDS, self.watch_file)

    def on_unmount(self) -> None:
        self.grader.unsubscribe(self)

    async def apply_lang(self) -> None:
        self.show_text()

    def show_text(self) -> None:
        ex, lang = self.exercise, self.lang
        self.sub_title = ex.id
        self.query_one("#exercise-prompt", Markdown).update(
            escape_dunders(f"## {ex.title.get(lang)}\n\n{ex.prompt.get(lang)}")
        )
        hints = ex.hints.get(lang)[: self.hints_shown]
        self.query_one("#exercise-hints", Markdown).update(
            "\n".join(f"> **{self.t('hint')} {i}**: {h}\n" for i, h in enumerate(hints, 1))
        )

    def clear_results(self) -> None:
        self.query_one("#results", Static).update(f"ctrl+r: {self.t('run_checks')}")

    def action_back(self) -> None:
        """Esc cancels a check in progress; otherwise it leaves the screen."""
        if self.running:
            self.action_cancel_checks()
            return
        super().action_back()

    def action_save(self) -> None:
        if self.save():
            # said on the file line, not in a toast that would cover the results headline
            self.query_one("#exercise-file", Static).update(
                markup("$path  [b]✓ $saved[/b]", path=self.path, saved=self.t("saved"))
            )

    # --- grading --------------------------------------------------------------------------------

    def action_run_checks(self) -> None:
        if self.running or not self.save():
            return
        self.running, self.cancelled = True, False
        self.query_one("#grading").remove_class("hidden")
        if self.grader.ready:
            self._grading_status()
            self.run_checks()
        else:
            self.waiting = True
            self.query_one("#results", Static).update(
                markup("[b]$status[/b]  esc: $cancel", status=self.t("grader_starting"), cancel=self.t("cancel"))
            )
            self.grader.start()

    def _grading_status(self) -> None:
        self.query_one("#results", Static).update(
            markup("[b]$status[/b]  esc: $cancel", status=self.t("running"), cancel=self.t("cancel"))
        )

    def on_grader_ready(self, message: GraderReady) -> None:
        if message.error:
            self.notify(message.error, title=self.t("grader"), severity="error", markup=False)
        if self.waiting:
            self.waiting = False
            if message.error:
                self.show_error(f"{self.t('grader')}: {message.error}")
            else:
                self._grading_status()
                self.run_checks()

    @work(thread=True, exclusive=True, group="grader")
    def run_checks(self) -> None:
        ex = self.exercise
        try:
            result = self.grader.grade(ex.model_dump(), self.ctx.bank.exercise_dirs[ex.id], self.path, lang=self.lang)
            self.post_message(GradeFinished(ex.id, result=result, cancelled=self.cancelled))
        except Exception as exc:  # noqa: BLE001 - a grader crash is shown in the app
            self.post_message(GradeFinished(ex.id, error=f"{self.t('grader')}: {exc}", cancelled=self.cancelled))

    def on_grade_finished(self, message: GradeFinished) -> None:
        if message.cancelled:
            self.show_error(self.t("cancelled"))
        elif message.error:
            self.show_error(message.error)
        else:
            self.show_result(message.result)

    def action_cancel_checks(self) -> None:
        """Stop a check in progress: the grader process is ended and a fresh one started."""
        if not self.running:
            return
        self.cancelled = True
        if self.waiting:
            self.waiting = False
            self.show_error(self.t("cancelled"))
            return
        self.grader.restart()

    def show_error(self, message: str) -> None:
        self.running = False
        self.query_one("#grading").add_class("hidden")
        self.query_one("#results", Static).update(markup("[red]$message[/red]", message=message))

    def show_result(self, result) -> None:
        self.running = False
        self.query_one("#grading").add_class("hidden")
        self.record(result)
        # names and messages come from the learner's code: filled in as literal text, never markup
        lines: list[Content] = [
            markup(
                f"[b {COLOURS[result.status]}]{ICONS[result.status]} {result.status}[/]  $summary",
                summary=f"{result.passed}/{len(result.tests)} · {result.duration_ms} ms",
            )
        ]
        for t in result.tests:
            lines.append(markup(f"[{COLOURS[t.status]}]{ICONS[t.status]}[/] $name", name=t.name))
            if t.status != "pass" and t.message:
                lines.append(markup("   [dim]$message[/dim]", message=t.message))
        if not result.tests and result.message:
            lines.append(plain(result.message))
        if result.status == "pass":
            lines.append(self._next_line())
        if result.protections:
            lines.append(markup("[dim]$fences[/dim]", fences=f"{self.t('fenced')}: " + ", ".join(result.protections)))
        self.query_one("#results", Static).update(Content("\n").join(lines))

    def _next_line(self) -> Content:
        from quiz.session.exercises import next_unfinished

        status = self.ctx.store.exercise_status() if self.ctx.store is not None else {}
        nxt = next_unfinished(self.ctx.bank, status, self.exercise_id)
        if nxt is None:
            return markup("\n[b green]$text[/]", text=self.t("all_passed"))
        return plain(f"\nctrl+n: {self.t('next_exercise')} → {self.ctx.bank.exercises[nxt].title.get(self.lang)}")

    def action_next_exercise(self) -> None:
        from quiz.session.exercises import next_unfinished

        status = self.ctx.store.exercise_status() if self.ctx.store is not None else {}
        nxt = next_unfinished(self.ctx.bank, status, self.exercise_id)
        if nxt is None:
            self.notify(self.t("all_passed"))
            return
        if not self.save():
            return
        self.app.switch_screen(ExerciseScreen(nxt))

    @store_guard
    def record(self, result) -> None:
        services = self.ctx.services
        if services is not None:
            from quiz.session.progress import Progress

            Progress(services.store, services.clock, services.scheduler, services.limits).record_attempt(result)

    # --- hints, reset, solution, external editor ---------------------------------------------------

    def action_hint(self) -> None:
        hints = self.exercise.hints.get(self.lang)
        if self.hints_shown < len(hints):
            self.hints_shown += 1
        self.show_text()

    def action_reset(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                path, saved = workspace.reset(self.ctx.bank, self.exercise_id)
                text, self.disk_stamp = self._read_disk()
                self._load(text)
                self.clear_results()
                self.notify(f"{self.t('reset')}" + (f": {saved.name}" if saved else ""), markup=False)

        self.app.push_screen(ConfirmScreen(self.t("confirm_reset"), self.t("yes"), self.t("no")), done)

    def action_solution(self) -> None:
        passed = self.ctx.store is not None and self.ctx.store.exercise_status().get(self.exercise_id) == "passed"

        def show(yes: bool | None) -> None:
            if yes:
                text = workspace.solution_text(self.ctx.bank, self.exercise_id)
                self.query_one("#exercise-hints", Markdown).update(
                    f"### {self.t('solution')}\n\n```python\n{text}\n```"
                )

        if passed:
            show(True)
        else:
            self.app.push_screen(ConfirmScreen(self.t("confirm_solution"), self.t("yes"), self.t("no")), show)

    def action_external_editor(self) -> None:
        if not self.save():
            return
        from textual.app import SuspendNotSupported

        editor = self.ctx.settings.editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        try:
            command = [*shlex.split(editor), str(self.path)]
            if not command[:-1] or shutil.which(command[0]) is None:
                raise FileNotFoundError(f"command not found: {command[0] if command[:-1] else editor!r}")
            with self.app.suspend():
                subprocess.run(command, check=False)
        except (OSError, ValueError, SuspendNotSupported) as exc:
            self.notify(f"{editor}: {exc}", title=self.t("editor_missing"), severity="error", timeout=8, markup=False)
            return
        self.watch_file()
