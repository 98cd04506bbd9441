"""The parent side of grading: start a warm worker process and ask it to grade files (no torch here)."""

from __future__ import annotations

import json
import logging
import os
import selectors
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from quiz.grader.results import ERROR, Result

log = logging.getLogger(__name__)

START_TIMEOUT_S = 120.0
SLACK_S = 75.0  # on top of the exercise's limit: the judge's own time and the forks

# `python -I` ignores PYTHON* variables, the user's site-packages and the working directory, so the worker
# imports this package from where it is installed and nothing a learner's code could have written.
BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from quiz.grader.worker import main; main()"


class GraderError(RuntimeError):
    """The worker could not be started or stopped answering."""


class GraderWorker:
    """One warm worker process; `grade` may be called many times. Use as a context manager."""

    def __init__(self, python: str | None = None, fences_off: tuple[str, ...] = ()):
        self.python = python or sys.executable
        self.fences_off = tuple(fences_off)  # for tests that show a fence matters; see grader.sandbox
        self.proc: subprocess.Popen | None = None
        self.start_ms: int | None = None
        self._lock = threading.Lock()
        self.protections: list[str] = []

    def __enter__(self) -> "GraderWorker":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> int:
        """Start the worker and wait until it is warm; returns the milliseconds that took."""
        if self.alive:
            return self.start_ms or 0
        began = time.perf_counter()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZ_", "PYTHON"))}
        package_root = str(Path(__file__).resolve().parents[2])
        self.proc = subprocess.Popen(
            [self.python, "-I", "-u", "-c", BOOT, package_root]
            + ([f"--fences-off={','.join(self.fences_off)}"] if self.fences_off else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd="/",
            env=env,
            text=True,
            encoding="utf-8",
            start_new_session=True,
        )
        try:
            reply = self._read_reply(START_TIMEOUT_S)
        except GraderError:
            self.close()
            raise
        if reply.get("ready") is not True:
            self.close()
            raise GraderError(f"the grader worker did not start: {str(reply)[:200]}")
        self.protections = [str(p) for p in reply.get("protections", [])]
        self.start_ms = int((time.perf_counter() - began) * 1000)
        return self.start_ms

    def grade(self, exercise: dict, folder: Path, file: Path, lang: str = "en", device: str = "auto") -> Result:
        """Grade `file` against the exercise (its model as a dict); messages in `lang` (en or zh); never raises
        for learner code. `device` ("auto", "cpu" or "cuda") says where kernel checks run; auto takes a GPU
        when there is one."""
        with self._lock:
            if not self.alive:
                self.start()
            limit = float(exercise.get("time_limit_s", 10)) + SLACK_S
            request = {
                "op": "grade",
                "exercise": exercise,
                "dir": str(folder),
                "file": str(Path(file).absolute()),
                "lang": lang,
                "device": device,
            }
            try:
                reply = self._exchange(request, limit)
            except GraderError as exc:
                return Result(
                    exercise["id"],
                    ERROR,
                    f"评测器没有响应，已重启：{exc}"
                    if lang == "zh"
                    else f"the grader stopped answering and was restarted: {exc}",
                )
            if "error" in reply:
                problem = str(reply["error"])[:500]
                return Result(
                    exercise["id"], ERROR, f"评测器出错：{problem}" if lang == "zh" else f"grader problem: {problem}"
                )
            reply.pop("id", None)
            try:
                return Result.from_dict(reply)
            except (ValueError, TypeError, KeyError):
                self.close()
                return Result(
                    exercise["id"],
                    ERROR,
                    "评测器的回复不是结果，已重启评测器"
                    if lang == "zh"
                    else "the grader's reply was not a result; the grader was restarted",
                )

    def ping(self) -> dict:
        with self._lock:
            return self._exchange({"op": "ping"}, 10)

    def _exchange(self, request: dict, timeout: float) -> dict:
        """Send one request with a fresh id and read its reply; anything else restarts the worker."""
        proc = self.proc  # kill() may clear self.proc from another thread meanwhile
        request_id = uuid.uuid4().hex
        try:
            self._send(dict(request, id=request_id), proc)
            reply = self._read_reply(timeout, proc)
        except GraderError:
            self.close()
            raise
        if not isinstance(reply, dict) or reply.get("id") != request_id:
            self.close()
            raise GraderError("a reply did not match its request")
        return reply

    def kill(self) -> None:
        """Stop at once, even in the middle of a grade (which then returns an error result)."""
        self.close(polite=False)

    def close(self, polite: bool = True) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if polite and proc.poll() is None and proc.stdin:
                proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, 9)
            except (ProcessLookupError, PermissionError):
                proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def _send(self, request: dict, proc: subprocess.Popen | None = None) -> None:
        proc = proc or self.proc
        if proc is None or proc.stdin is None:
            raise GraderError("the worker is not running")
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise GraderError(f"cannot write to the worker: {exc}") from exc

    def _read_reply(self, timeout: float, proc: subprocess.Popen | None = None) -> dict:
        proc = proc or self.proc
        if proc is None or proc.stdout is None:
            raise GraderError("the worker is not running")
        sel = selectors.DefaultSelector()
        try:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout=timeout):
                raise GraderError(f"no answer within {timeout:g} s")
            line = proc.stdout.readline()
        except (OSError, ValueError) as exc:  # the pipe was closed under us (the worker was killed)
            raise GraderError(f"the worker went away: {exc}") from exc
        finally:
            sel.close()
        if not line:
            raise GraderError(f"the worker exited (status {proc.poll()})")
        try:
            return json.loads(line)
        except ValueError as exc:
            raise GraderError(f"unreadable reply: {line[:200]!r}") from exc
