"""A built wheel (not only an editable install) carries the built-in content and finds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


@pytest.mark.slow
def test_wheel_ships_and_finds_content(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next(wheels.glob("*.whl"))
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    probe = (
        "import json, quiz, quiz.paths\n"
        "from quiz.content import load_default_bank\n"
        "b = load_default_bank()\n"
        "print(json.dumps([quiz.__file__, str(quiz.paths.builtin_content_dir()), len(b.modules), len(b.questions)]))"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=True, timeout=120
    )
    where, content, modules, questions = json.loads(out.stdout)
    assert where.startswith(str(target))
    assert Path(content) == target / "quiz" / "_content"
    assert modules == 23
    repo_questions = len(list((REPO / "content").glob("*/*.yaml")))
    assert questions == repo_questions
