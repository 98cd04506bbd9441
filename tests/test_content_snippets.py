"""Code in answers: every `python runnable` snippet runs on a CPU and exits 0; every other Python snippet
compiles. Snippets are run as script files in a fresh interpreter, one question at a time."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from quiz import paths
from quiz.content.loader import load_bank

BUILTIN = paths.builtin_content_dir()
BANK = load_bank([BUILTIN], builtin=BUILTIN)
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.S | re.M)
TIMEOUT_S = 240


def texts(question) -> list[str]:
    out = [question.answer.zh, question.answer.en]
    for f in question.follow_ups:
        out += [f.answer.zh, f.answer.en]
    return [t for t in out if t]


def snippets(question) -> tuple[list[str], list[str]]:
    """(runnable, compile-only) Python snippets, each once even when both languages carry it."""
    runnable, other = {}, {}
    for text in texts(question):
        for info, code in FENCE.findall(text):
            words = info.split()
            if words[:1] == ["python"]:
                (runnable if "runnable" in words[1:] else other).setdefault(code, None)
    return list(runnable), list(other)


QUESTIONS = sorted(BANK.questions.values(), key=lambda q: q.number or 0)
WITH_RUNNABLE = [q for q in QUESTIONS if snippets(q)[0]]


def test_the_bank_has_runnable_snippets():
    assert len(WITH_RUNNABLE) >= 40


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: f"{q.number:03d}-{q.id}")
def test_python_snippets_compile(question):
    for code in sum(snippets(question), []):
        compile(code, f"{question.id}-snippet", "exec")


@pytest.mark.slow
@pytest.mark.parametrize("question", WITH_RUNNABLE, ids=lambda q: f"{q.number:03d}-{q.id}")
def test_runnable_snippets_run(question, tmp_path):
    for k, code in enumerate(snippets(question)[0]):
        script = tmp_path / f"snippet_{k}.py"
        script.write_text(code, encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "OMP_NUM_THREADS": "1", "MASTER_ADDR": "127.0.0.1"},
        )
        assert proc.returncode == 0, f"snippet {k} of {question.id} exited {proc.returncode}:\n{proc.stderr[-3000:]}"


def test_fence_markers_are_only_known_words():
    for question in QUESTIONS:
        for text in texts(question):
            for info, _ in FENCE.findall(text):
                words = info.split()
                assert words[1:] in ([], ["runnable"]), f"{question.id}: fence info {info!r}"
