"""The request/reply protocol: every reply must echo its request's id and be a results object; anything
else restarts the worker and the check reports an error, never someone else's verdict."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from grader_helpers import FIXTURE, GOOD_DOUBLE, WRONG_DOUBLE, grade_source, load_exercise
from quiz.grader.runner import GraderWorker

FAKE = Path(__file__).parent / "fixtures" / "fake_worker" / "fake_worker.py"


def fake_python(tmp_path: Path, mode: str) -> str:
    """An executable that the runner starts as its "python": it runs the fake worker in `mode`."""
    mode_file = tmp_path / "mode"
    mode_file.write_text(mode)
    script = tmp_path / "fake-python"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} {mode_file}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_a_well_behaved_worker_is_believed(tmp_path):
    with GraderWorker(python=fake_python(tmp_path, "good")) as w:
        assert grade_source(w, tmp_path, GOOD_DOUBLE).status == "pass"


@pytest.mark.parametrize("mode", ["extra-line", "wrong-id", "garbage", "not-result"])
def test_a_reply_that_does_not_match_is_an_error_and_restarts_the_worker(tmp_path, mode):
    with GraderWorker(python=fake_python(tmp_path, mode)) as w:
        first_pid = w.proc.pid
        result = grade_source(w, tmp_path, GOOD_DOUBLE)
        assert result.status == "error"
        assert "restarted" in result.message
        assert not w.alive
        grade_source(w, tmp_path, GOOD_DOUBLE)
        assert w.proc is None or w.proc.pid != first_pid


def test_a_worker_that_never_answers_is_an_error_after_the_limit_and_is_restarted(tmp_path, monkeypatch):
    monkeypatch.setattr("quiz.grader.runner.SLACK_S", 0.0)
    exercise = dict(load_exercise(FIXTURE), time_limit_s=0.5)
    with GraderWorker(python=fake_python(tmp_path, "silent")) as w:
        first_pid = w.proc.pid
        result = grade_source(w, tmp_path, GOOD_DOUBLE, exercise=exercise)
        assert result.status == "error"
        assert "no answer within 0.5 s" in result.message and "restarted" in result.message
        assert not w.alive
        grade_source(w, tmp_path, GOOD_DOUBLE, exercise=exercise)
        assert w.proc is None or w.proc.pid != first_pid


def test_the_real_worker_answers_malformed_requests_and_keeps_grading(tmp_path):
    with GraderWorker() as w:
        assert "error" in w._exchange({"op": "grade"}, 30)
        assert "error" in w._exchange({"op": "no-such-op"}, 30)
        assert w.ping()["ok"]
        assert grade_source(w, tmp_path, WRONG_DOUBLE).status == "fail"
        assert grade_source(w, tmp_path, GOOD_DOUBLE).status == "pass"


def test_results_say_which_fences_were_up(tmp_path):
    with GraderWorker() as w:
        result = w.grade(load_exercise(FIXTURE), FIXTURE, FIXTURE / "solution.py")
    assert result.status == "pass"
    assert "rlimits" in result.protections and result.to_dict()["protections"] == result.protections
    if os.geteuid() == 0:
        assert "capabilities-dropped" in result.protections


def test_quiz_check_says_which_fences_were_up(tmp_path):
    import subprocess

    folder = Path(__file__).resolve().parents[1] / "content" / "01-pytorch-internals" / "exercises" / "silu-function"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "quiz",
            "--lang",
            "en",
            "check",
            "silu-function",
            str(folder / "solution.py"),
            "--no-record",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "fenced: " in proc.stdout and "rlimits" in proc.stdout
