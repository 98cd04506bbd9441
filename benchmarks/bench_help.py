"""help_start_ms: `quiz --help` as a whole process, median of 5."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from common import median_ms


def _help() -> None:
    exe = shutil.which("quiz")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "quiz", "--help"]
    subprocess.run(cmd, check=True, capture_output=True, env=dict(os.environ), timeout=60)


def run() -> dict:
    return {"help_start_ms": median_ms(_help, runs=5)}
