"""The import-linter contracts hold on the tree, and each one breaks when its rule is broken on purpose."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

DOMAIN = "The domain never imports Textual, Rich or the TUI"
INDEPENDENT = "Scheduling and content are independent; quiz.session joins them"
GRADER = "The grader never touches the progress store"
NO_TORCH = "The app process never imports torch, numpy or pytest"
CONTRACTS = [DOMAIN, INDEPENDENT, GRADER, NO_TORCH]


def lint_imports(root: Path) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    code = "import sys\nfrom importlinter.cli import lint_imports_command\nsys.exit(lint_imports_command())"
    out = subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--no-logo", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.returncode, out.stdout + out.stderr


def broken(output: str) -> set[str]:
    return {name for name in CONTRACTS if f"{name} BROKEN" in output}


@pytest.fixture
def tree(tmp_path) -> Path:
    shutil.copytree(REPO / "quiz", tmp_path / "quiz", ignore=shutil.ignore_patterns("__pycache__", "_content"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def plant(root: Path, module: str, line: str) -> None:
    with (root / module).open("a", encoding="utf-8") as fh:
        fh.write(f"\n{line}  # planted\n")


def test_every_contract_holds_on_the_tree(tree):
    code, output = lint_imports(tree)
    assert code == 0, output
    assert all(f"{name} KEPT" in output for name in CONTRACTS), output


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("quiz/srs/clock.py", "import textual", DOMAIN),
        ("quiz/session/review.py", "from quiz.tui import app", DOMAIN),
        ("quiz/content/models.py", "import rich", DOMAIN),
        ("quiz/grader/runner.py", "import torch", NO_TORCH),
        ("quiz/tui/screens/exercise.py", "from quiz.grader import grade", NO_TORCH),
        ("quiz/cli/list_cmd.py", "import numpy", NO_TORCH),
        ("quiz/srs/store.py", "from quiz.content import bank", INDEPENDENT),
        ("quiz/content/loader.py", "from quiz.srs import clock", INDEPENDENT),
        ("quiz/grader/worker.py", "from quiz.srs.store import Store", GRADER),
        ("quiz/grader/grade.py", "import sqlite3", GRADER),
    ],
)
def test_a_planted_import_breaks_its_contract(tree, module, line, contract):
    plant(tree, module, line)
    code, output = lint_imports(tree)
    assert code != 0
    assert broken(output) == {contract}, output
