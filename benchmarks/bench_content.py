"""bank_load_ms (imports and warm cache, in a fresh interpreter) and bank_load_cold_ms on a 305-question bank."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
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


# Timed inside a fresh interpreter from before the loader is imported: what the app pays at start, less
# the interpreter's own start-up.
FRESH_LOAD = """
import json, sys, time
start = time.perf_counter()
from pathlib import Path
from quiz.content.loader import load_bank
root = Path(sys.argv[1])
bank = load_bank([root], builtin=root, cache_file=Path(sys.argv[2]))
print(json.dumps({"ms": (time.perf_counter() - start) * 1000, "questions": len(bank.questions)}))
"""


def _fresh_load_ms(root: Path, cache: Path) -> float:
    out = subprocess.run([sys.executable, "-c", FRESH_LOAD, str(root), str(cache)], check=True,
                         capture_output=True, text=True, timeout=120, env=dict(os.environ))
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["questions"] == TARGET_QUESTIONS, report
    return report["ms"]


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
        warm_in_process = median_ms(lambda: load_bank([root], builtin=root, cache_file=cache), runs=5)
        _fresh_load_ms(root, cache)
        fresh = statistics.median(_fresh_load_ms(root, cache) for _ in range(5))
    return {
        "bank_questions": count,
        "bank_yaml_mb": round(size / 1e6, 2),
        "bank_load_ms": round(fresh, 2),
        "bank_load_no_imports_ms": warm_in_process,
        "bank_load_cold_ms": cold,
    }
