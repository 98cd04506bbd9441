"""The import rules of the design doc, checked in fresh interpreters via sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY_UI = {"textual", "rich"}
HEAVY_ML = {"torch", "numpy", "pytest", "triton"}
DOUBLE = Path(__file__).parent / "fixtures" / "exercises" / "double"


def loaded_modules(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def loaded_after(code: str) -> set[str]:
    return {m.split(".")[0] for m in loaded_modules(code)}


def test_package_import_is_light():
    assert not loaded_after("import quiz") & (HEAVY_UI | HEAVY_ML | {"pydantic", "yaml", "click"})


def test_help_loads_neither_textual_nor_torch():
    code = "import sys\nfrom quiz.cli.main import cli\ntry:\n    cli(['--help'])\nexcept SystemExit:\n    pass"
    assert not loaded_after(code) & (HEAVY_UI | HEAVY_ML | {"pydantic"})


@pytest.mark.parametrize(
    "module",
    [
        "quiz.content",
        "quiz.content.loader",
        "quiz.paths",
        "quiz.config",
        "quiz.srs.store",
        "quiz.srs.queue",
        "quiz.srs.scheduler",
        "quiz.srs.stats",
        "quiz.srs.backup",
        "quiz.srs.undo",
        "quiz.srs.reschedule",
        "quiz.srs.sync",
        "quiz.srs.optimize",
        "quiz.session.review",
        "quiz.session.quiz",
        "quiz.session.progress",
        "quiz.session.browse",
        "quiz.session.exercises",
        "quiz.services",
        "quiz.grader.runner",
        "quiz.export.anki",
        "quiz.cli.optimize_cmd",
    ],
)
def test_domain_never_imports_ui_or_torch(module):
    assert not loaded_after(f"import {module}") & (HEAVY_UI | HEAVY_ML)


def test_loading_the_bank_stays_domain_only():
    code = "from quiz.content import load_default_bank\nload_default_bank()"
    assert not loaded_after(code) & (HEAVY_UI | HEAVY_ML)


def test_srs_and_content_do_not_import_each_other():
    assert not {m for m in loaded_modules("import quiz.srs.store, quiz.srs.stats") if m.startswith("quiz.content")}
    assert not {m for m in loaded_modules("import quiz.content.loader") if m.startswith("quiz.srs")}


def test_the_real_grader_runs_without_torch_in_the_parent():
    code = (
        "from pathlib import Path\nfrom quiz.grader.runner import GraderWorker\n"
        f"folder = Path({str(DOUBLE)!r})\n"
        "from quiz.content.loader import load_bank\n"
        f"bank = load_bank([Path({str(DOUBLE.parent)!r})])\n"
        "with GraderWorker() as worker:\n"
        "    result = worker.grade(bank.exercises['double-fixture'].model_dump(), folder, folder / 'solution.py')\n"
        "assert result.status == 'pass', result"
    )
    assert not loaded_after(code) & HEAVY_ML


@pytest.mark.slow
def test_app_process_never_imports_torch_after_every_screen():
    script = Path(__file__).parent / "tui" / "open_every_screen.py"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["grader"] == "GraderService(GraderWorker)"
    assert report["verdict"].startswith("✓ pass"), report["verdict"]
    assert report["heavy_modules"] == []
