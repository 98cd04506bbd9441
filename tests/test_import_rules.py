"""The import rules of the design doc, checked in fresh interpreters via sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY_UI = {"textual", "rich"}
HEAVY_ML = {"torch", "numpy", "pytest", "triton"}


def loaded_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_package_import_is_light():
    assert not loaded_after("import quiz") & (HEAVY_UI | HEAVY_ML | {"pydantic", "yaml", "click"})


def test_help_loads_neither_textual_nor_torch():
    code = "import sys\nfrom quiz.cli.main import cli\ntry:\n    cli(['--help'])\nexcept SystemExit:\n    pass"
    assert not loaded_after(code) & (HEAVY_UI | HEAVY_ML | {"pydantic"})


@pytest.mark.parametrize(
    "module",
    ["quiz.content", "quiz.content.loader", "quiz.paths", "quiz.config", "quiz.session.review", "quiz.session.progress",
     "quiz.session.browse", "quiz.session.exercises", "quiz.srs.undo", "quiz.srs.reschedule", "quiz.srs.stats"],
)
def test_domain_never_imports_ui_or_torch(module):
    assert not loaded_after(f"import {module}") & (HEAVY_UI | HEAVY_ML)


def test_loading_the_bank_stays_domain_only():
    code = "from quiz.content import load_default_bank\nload_default_bank()"
    assert not loaded_after(code) & (HEAVY_UI | HEAVY_ML)


def test_app_process_never_imports_torch_after_every_screen():
    script = __import__("pathlib").Path(__file__).parent / "tui" / "open_every_screen.py"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["heavy_modules"] == []
