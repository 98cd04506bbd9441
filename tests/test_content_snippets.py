"""Code in answers: every `python runnable` snippet runs on a CPU and exits 0; every other Python snippet
compiles. Snippets run as script files, each in a fresh fork of a process that imported torch once
(tests/snippet_zygote.py), in its own folder and environment."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

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


@pytest.fixture(scope="module")
def zygote():
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("snippet_zygote.py"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and json.loads(proc.stdout.readline()) == {"ready": True}
    yield proc
    proc.stdin.close()  # type: ignore[union-attr]
    proc.wait(timeout=30)


def run_script(zygote, script: Path, cwd: Path) -> dict:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "OMP_NUM_THREADS": "1", "MASTER_ADDR": "127.0.0.1"}
    request = {"script": str(script), "cwd": str(cwd), "env": env, "timeout": TIMEOUT_S}
    zygote.stdin.write(json.dumps(request) + "\n")
    zygote.stdin.flush()
    return json.loads(zygote.stdout.readline())


def test_the_runner_reports_failures_and_output(zygote, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nprint('before')\nraise ValueError('boom')\n", encoding="utf-8")
    assert run_script(zygote, bad, tmp_path)["rc"] == 1
    assert (
        "before" in (tmp_path / "snippet.out").read_text()
        and "ValueError: boom" in (tmp_path / "snippet.out").read_text()
    )
    good = tmp_path / "good.py"
    good.write_text("import os, sys\nassert __name__ == '__main__' and os.getcwd() == sys.argv[1]\n", encoding="utf-8")
    assert run_script(zygote, good, tmp_path)["rc"] == 1  # argv[1] is missing: the assertion fails
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    assert run_script(zygote, exits, tmp_path)["rc"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("question", WITH_RUNNABLE, ids=lambda q: f"{q.number:03d}-{q.id}")
def test_runnable_snippets_run(question, tmp_path, zygote):
    for k, code in enumerate(snippets(question)[0]):
        script = tmp_path / f"snippet_{k}.py"
        script.write_text(code, encoding="utf-8")
        reply = run_script(zygote, script, tmp_path)
        output = (tmp_path / "snippet.out").read_text(errors="replace")
        assert reply["rc"] == 0, f"snippet {k} of {question.id} exited {reply}:\n{output[-3000:]}"


def test_fence_markers_are_only_known_words():
    for question in QUESTIONS:
        for text in texts(question):
            for info, _ in FENCE.findall(text):
                words = info.split()
                assert words[1:] in ([], ["runnable"]), f"{question.id}: fence info {info!r}"
