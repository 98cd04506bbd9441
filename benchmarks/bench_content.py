"""bank_load_ms (warm cache) and bank_load_cold_ms on a 305-question bank, and help_start_ms."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import median_ms

from quiz import paths
from quiz.content.loader import load_bank

TARGET_QUESTIONS = 305


def build_bank(root: Path) -> int:
    """Copy the real content, then add renamed copies of real questions up to 305 in all."""
    shutil.copytree(paths.builtin_content_dir(), root, dirs_exist_ok=True)
    real = sorted(root.glob("[0-9][0-9]-*/*.yaml"))
    used = set()
    for f in real:
        m = re.search(r"^number: (\d+)$", f.read_text(encoding="utf-8"), re.M)
        if m:
            used.add(int(m.group(1)))
    free = [n for n in range(1, TARGET_QUESTIONS + 1) if n not in used]
    extra = root / "99-synthetic"
    extra.mkdir()
    for i, number in enumerate(free):
        text = real[i % len(real)].read_text(encoding="utf-8")
        text = re.sub(r"^id: (\S+)$", lambda m: f"id: {m.group(1)}-copy{i}", text, count=1, flags=re.M)
        text = re.sub(r"^number: \d+$", f"number: {number}", text, count=1, flags=re.M)
        (extra / f"{number:03d}-copy.yaml").write_text(text, encoding="utf-8")
    return len(real) + len(free)


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        count = build_bank(root)
        cache = Path(tmp) / "cache.json"
        size = sum(p.stat().st_size for p in root.rglob("*.yaml"))
        cold = median_ms(lambda: load_bank([root], builtin=root), runs=3, warmup=1)
        bank = load_bank([root], builtin=root, cache_file=cache)
        assert len(bank.questions) == count == TARGET_QUESTIONS, (len(bank.questions), count)
        assert not bank.errors, bank.errors[:3]
        warm = median_ms(lambda: load_bank([root], builtin=root, cache_file=cache), runs=5)
    help_ms = median_ms(_help, runs=5)
    return {
        "bank_questions": count,
        "bank_yaml_mb": round(size / 1e6, 2),
        "bank_load_ms": warm,
        "bank_load_cold_ms": cold,
        "help_start_ms": help_ms,
    }


def _help() -> None:
    exe = shutil.which("quiz")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "quiz", "--help"]
    subprocess.run(cmd, check=True, capture_output=True, env=dict(os.environ))
