"""An exercise's reference may only be a public tensor op of a few torch namespaces or a checks.py
function; a pack's Python code is named by `quiz validate`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from quiz.content.references import reference_problem

FIXTURE = Path(__file__).parent / "fixtures" / "exercises" / "double"


@pytest.mark.parametrize("target", ["torch.nn.functional.silu", "torch.softmax", "torch.linalg.norm", "checks:twice"])
def test_public_tensor_ops_and_checks_functions_are_allowed(target):
    assert reference_problem(target) is None


@pytest.mark.parametrize(
    "target",
    [
        "os.system",
        "torch.hub.load",
        "torch.utils.cpp_extension.load_inline",
        "torch._C._nn.linear",
        "torch.nn.functional._pad",
        "builtins.eval",
        "checks:os.system",
        "subprocess.run",
        "torch.ops.aten.add",
    ],
)
def test_anything_else_is_refused(target):
    assert reference_problem(target)


def run_validate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "quiz", "validate", *args], capture_output=True, text=True, timeout=120
    )


def make_pack(tmp_path: Path, reference: str) -> Path:
    pack = tmp_path / "pack"
    folder = pack / "exercises" / "double"
    shutil.copytree(FIXTURE, folder)
    spec = (folder / "exercise.yaml").read_text(encoding="utf-8")
    spec = spec.replace("id: double-fixture", "id: mypack-double").replace("questions: [q1]", "questions: []")
    spec = spec.replace("module: alpha", "module: pytorch-internals")
    (folder / "exercise.yaml").write_text(
        spec.replace('reference: "checks:twice"', f"reference: {reference}"), encoding="utf-8"
    )
    return pack


def test_validate_reports_a_forbidden_reference_at_its_line(tmp_path):
    pack = make_pack(tmp_path, "os.system")
    proc = run_validate("--strict", str(pack))
    assert proc.returncode == 1
    line = next(row for row in proc.stdout.splitlines() if "os.system" in row)
    path, row, col = line.split(":")[:3]
    assert path.endswith("exercise.yaml") and int(row) > 1 and int(col) >= 1


def test_validate_names_a_packs_python_code(tmp_path):
    pack = make_pack(tmp_path, '"checks:twice"')
    proc = run_validate("--json", str(pack))
    data = json.loads(proc.stdout)
    names = sorted(Path(p).name for p in data["code"])
    assert names == ["checks.py", "solution.py"]
    text = run_validate(str(pack)).stdout
    assert "checks.py:1:1: note: Python code that runs" in text
