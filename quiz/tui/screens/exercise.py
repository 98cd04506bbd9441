"""An exercise: the prompt, an editor on the workspace file, checks run in a worker, hints, reset, solution."""

from __future__ import annotations

import os
import shlex
import subprocess

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Header, LoadingIndicator, Markdown, Static, TextArea

from quiz import workspace
from quiz.content.dunders import escape_dunders
from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.widgets.code_editor import CodeEditor
from quiz.tui.widgets.keybar import KeyBar
from quiz.tui.screens.confirm import ConfirmScreen

ICONS = {"pass": "✓", "fail": "✗", "error": "!", "timeout": "⏱"}


class ExerciseScreen(BaseScreen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", priority=True),
        Binding("ctrl+r", "run_checks", "Run checks", id="exercise.run", priority=True),
        Binding("ctrl+s", "save", "Save", id="exercise.save", priority=True),
        Binding("ctrl+g", "hint", "Hint", id="exercise.hint", priority=True),
        Binding("ctrl+t", "reset", "Reset", id="exercise.reset", priority=True),
        Binding("ctrl+o", "solution", "Solution", id="exercise.solution", priority=True),
        Binding("ctrl+b", "external_editor", "$EDITOR", id="exercise.editor", priority=True),
    ]

    def __init__(self, exercise_id: str):
        super().__init__()
        self.exercise_id = exercise_id
        self.hints_shown = 0
        self.grader = None
        self.running = False
        self.cancelled = False
        self.path = None

    @property
    def exercise(self):
        return self.ctx.bank.exercises[self.exercise_id]

    def compose(self) -> ComposeResult:
        self.path, _ = workspace.start(self.ctx.bank, self.exercise_id)
        yield Header()
        with Horizontal():
            with VerticalScroll(id="exercise-left"):
                yield Markdown(id="exercise-prompt", classes="markdown")
                yield Markdown(id="exercise-hints", classes="markdown")
            with Vertical(id="exercise-right"):
                yield Static(str(self.path), id="exercise-file", classes="muted")
                yield CodeEditor.code_editor(self.path.read_text(encoding="utf-8"), language="python", id="editor")
                yield LoadingIndicator(id="grading", classes="hidden")
                with VerticalScroll(id="results-scroll"):
                    yield Static(id="results")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_text()
        self.query_one("#results", Static).update(f"ctrl+r: {self.t('run_checks')}")
        self.query_one("#editor").focus()
        self.start_grader()

    async def apply_lang(self) -> None:
        self.show_text()

    def show_text(self) -> None:
        ex, lang = self.exercise, self.lang
        self.sub_title = ex.id
        self.query_one("#exercise-prompt", Markdown).update(escape_dunders(f"## {ex.title.get(lang)}\n\n{ex.prompt.get(lang)}"))
        hints = ex.hints.get(lang)[: self.hints_shown]
        self.query_one("#exercise-hints", Markdown).update(
            "\n".join(f"> **{self.t('hint')} {i}**: {h}\n" for i, h in enumerate(hints, 1)))

    @work(thread=True, exclusive=True, group="grader-start")
    def start_grader(self) -> None:
        """Start the grader worker in the background so the first check is warm."""
        factory = self.ctx.grader_factory
        if factory is None:
            from quiz.grader.runner import GraderWorker

            factory = GraderWorker
        grader = factory()
        try:
            grader.start()
        except Exception as exc:  # noqa: BLE001 - shown, not fatal
            self.app.call_from_thread(self.notify, str(exc), title=self.t("grader"), severity="error")
        self.grader = grader

    def on_unmount(self) -> None:
        if self.grader is not None:
            self.grader.close()

    def action_back(self) -> None:
        """Esc cancels a check in progress; otherwise it leaves the screen."""
        if self.running:
            self.action_cancel_checks()
            return
        super().action_back()

    def action_save(self) -> None:
        self.path.write_text(self.query_one("#editor", TextArea).text, encoding="utf-8")
        # said on the file line, not in a toast that would cover the results headline
        self.query_one("#exercise-file", Static).update(
            Content.from_markup("$path  [b]✓ $saved[/b]", path=str(self.path), saved=self.t("saved")))

    def action_run_checks(self) -> None:
        if self.running:
            return
        self.action_save()
        self.running, self.cancelled = True, False
        self.query_one("#grading").remove_class("hidden")
        self.query_one("#results", Static).update(f"[b]{self.t('running')}[/b]  esc: {self.t('cancel')}")
        self.run_checks()

    def action_cancel_checks(self) -> None:
        """Stop a grade in progress: the grader process is ended and a fresh one started."""
        if not self.running:
            return
        self.cancelled = True
        grader, self.grader = self.grader, None
        if grader is not None:
            grader.kill()
            self.start_grader()

    @work(thread=True, exclusive=True, group="grader")
    def run_checks(self) -> None:
        try:
            import time

            while self.grader is None and not self.cancelled:
                time.sleep(0.05)
            if self.cancelled:
                self.app.call_from_thread(self.show_error, self.t("cancelled"))
                return
            ex = self.exercise
            result = self.grader.grade(ex.model_dump(), self.ctx.bank.exercise_dirs[ex.id], self.path)
            if self.cancelled:
                self.app.call_from_thread(self.show_error, self.t("cancelled"))
            else:
                self.app.call_from_thread(self.show_result, result)
        except Exception as exc:  # noqa: BLE001 - a grader crash is shown in the app
            self.app.call_from_thread(self.show_error, self.t("cancelled") if self.cancelled else f"{self.t('grader')}: {exc}")

    def show_error(self, message: str) -> None:
        self.running = False
        self.query_one("#grading").add_class("hidden")
        self.query_one("#results", Static).update(f"[red]{message}[/red]")

    def show_result(self, result) -> None:
        self.running = False
        self.query_one("#grading").add_class("hidden")
        self.record(result)
        colour = {"pass": "green", "fail": "red", "error": "red", "timeout": "yellow"}[result.status]
        lines = [f"[b {colour}]{ICONS[result.status]} {result.status}[/]  {result.passed}/{len(result.tests)} · {result.duration_ms} ms"]
        for t in result.tests:
            c = {"pass": "green", "fail": "red", "error": "red", "timeout": "yellow"}[t.status]
            lines.append(f"[{c}]{ICONS[t.status]}[/] {t.name}")
            if t.status != "pass" and t.message:
                lines.append(f"   [dim]{t.message}[/dim]")
        if not result.tests and result.message:
            lines.append(result.message)
        self.query_one("#results", Static).update("\n".join(lines))

    @store_guard
    def record(self, result) -> None:
        if self.ctx.store is not None:
            self.ctx.store.record_attempt(result.exercise, self.ctx.services.clock.now(), result.status,
                                          result.passed, len(result.tests), result.duration_ms)

    def action_hint(self) -> None:
        hints = self.exercise.hints.get(self.lang)
        if self.hints_shown < len(hints):
            self.hints_shown += 1
        self.show_text()

    def action_reset(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                path, saved = workspace.reset(self.ctx.bank, self.exercise_id)
                self.query_one("#editor", TextArea).text = path.read_text(encoding="utf-8")
                self.notify(f"{self.t('reset')}" + (f": {saved.name}" if saved else ""))

        self.app.push_screen(ConfirmScreen(self.t("confirm_reset"), self.t("yes"), self.t("no")), done)

    def action_solution(self) -> None:
        passed = self.ctx.store is not None and self.ctx.store.exercise_status().get(self.exercise_id) == "passed"

        def show(yes: bool | None) -> None:
            if yes:
                text = workspace.solution_text(self.ctx.bank, self.exercise_id)
                self.query_one("#exercise-hints", Markdown).update(f"### {self.t('solution')}\n\n```python\n{text}\n```")

        if passed:
            show(True)
        else:
            self.app.push_screen(ConfirmScreen(self.t("confirm_solution"), self.t("yes"), self.t("no")), show)

    def action_external_editor(self) -> None:
        self.action_save()
        editor = self.ctx.settings.editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        with self.app.suspend():
            subprocess.run([*shlex.split(editor), str(self.path)], check=False)
        self.query_one("#editor", TextArea).text = self.path.read_text(encoding="utf-8")
