"""The app's one warm grader: started in the background once, shared by every exercise screen; workers post typed messages."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from textual.message import Message

log = logging.getLogger(__name__)


class GraderReady(Message):
    """The shared grader finished starting; `error` says why it could not, if it could not."""

    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error


class GradeFinished(Message):
    """A grade came back: `result` (a quiz.grader.results.Result), or `error`; `cancelled` when it was stopped."""

    def __init__(self, exercise_id: str, result=None, error: str | None = None, cancelled: bool = False) -> None:
        super().__init__()
        self.exercise_id, self.result, self.error, self.cancelled = exercise_id, result, error, cancelled


class GraderService:
    """One GraderWorker (public API only: start, grade, kill, close, alive) for the whole app."""

    def __init__(self, factory=None, run_worker=None) -> None:
        self.factory = factory
        self.run_worker = run_worker  # App.run_worker, so the start is a Textual worker the app can wait for
        self.grader = None
        self.error: str | None = None
        self.starts = 0  # how many workers were started (one, unless a grade was cancelled)
        self._listeners: list = []
        self._lock = threading.Lock()
        self._starting = False
        self._closed = False

    @property
    def ready(self) -> bool:
        return self.grader is not None and not self._starting

    def subscribe(self, node) -> None:
        if node not in self._listeners:
            self._listeners.append(node)

    def unsubscribe(self, node) -> None:
        if node in self._listeners:
            self._listeners.remove(node)

    def start(self) -> None:
        """Start the worker in a background thread unless it is started or starting; listeners get GraderReady."""
        with self._lock:
            if self._starting or self.grader is not None or self._closed:
                return
            self._starting = True
        if self.run_worker is not None:
            self.run_worker(self._start, name="grader-start", group="grader-start", thread=True)
        else:
            threading.Thread(target=self._start, name="grader-start", daemon=True).start()

    def _start(self) -> None:
        factory = self.factory
        if factory is None:
            from quiz.grader.runner import GraderWorker

            factory = GraderWorker
        error = None
        grader = factory()
        try:
            grader.start()
        except Exception as exc:  # noqa: BLE001 - shown in the app, not fatal
            log.warning("grader did not start: %s", exc)
            error = str(exc)
        with self._lock:
            closed = self._closed
            if not closed:
                self.grader, self.error = grader, error
            self._starting = False
            self.starts += 1
            listeners = list(self._listeners)
        if closed:  # the app ended while the worker was starting
            grader.close()
            return
        for node in listeners:
            node.post_message(GraderReady(error))

    def grade(self, exercise: dict, folder: Path, file: Path, lang: str = "en"):
        """Grade on the warm worker (call from a worker thread, after GraderReady); messages in `lang`."""
        grader = self.grader
        if grader is None:
            raise RuntimeError("the grader is not started")
        return grader.grade(exercise, folder, file, lang=lang)

    def restart(self) -> None:
        """Stop the worker at once (a grade in flight returns an error) and start a fresh one in the background."""
        with self._lock:
            grader, self.grader = self.grader, None
        if grader is not None:
            grader.kill()
        self.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            grader, self.grader = self.grader, None
            self._listeners.clear()
        if grader is not None:
            grader.close()
