"""worker_start_ms, check_warm_ms_median, check_cold_ms_median and check_speedup for silu-function."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker

COLD = """
import json, sys, tempfile
from pathlib import Path
from quiz.grader.grade import grade
import torch
torch.set_num_threads(1)
spec = json.loads(sys.argv[1])
result = grade(spec, Path(sys.argv[2]), Path(sys.argv[3]), tempfile.mkdtemp())
assert result.status == "pass", result.to_dict()
"""


def run() -> dict:
    builtin = paths.builtin_content_dir()
    bank = load_bank([builtin], builtin=builtin)
    spec = bank.exercises["silu-function"].model_dump()
    folder = bank.exercise_dirs["silu-function"]
    solution = folder / "solution.py"
    worker = GraderWorker()
    start = time.perf_counter()
    worker.start()
    start_ms = (time.perf_counter() - start) * 1000
    try:
        warm = []
        worker.grade(spec, folder, solution)
        for _ in range(20):
            t = time.perf_counter()
            result = worker.grade(spec, folder, solution)
            warm.append((time.perf_counter() - t) * 1000)
            assert result.status == "pass"
    finally:
        worker.close()
    cold = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", COLD, json.dumps(spec), str(folder), str(solution)], check=True)
        cold.append((time.perf_counter() - t) * 1000)
    warm_ms, cold_ms = statistics.median(warm), statistics.median(cold)
    return {
        "worker_start_ms": round(start_ms, 1),
        "check_warm_ms_median": round(warm_ms, 2),
        "check_cold_ms_median": round(cold_ms, 1),
        "check_speedup": round(cold_ms / warm_ms, 1),
    }
