"""kernel_<exercise>_ms: grading each Triton kernel exercise's solution through a warm worker (the
interpreter on a CPU), median of 3, and kernel_worst_share_of_limit: the largest median / time_limit_s."""

from __future__ import annotations

import statistics
import time

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker
from quiz.grader.triton_support import available, uses_kernels

ROUNDS = 3


def run() -> dict:
    if not available():
        return {}
    builtin = paths.builtin_content_dir()
    bank = load_bank([builtin], builtin=builtin)
    ids = sorted(e for e in bank.exercises if uses_kernels(bank.exercises[e].model_dump()))
    figures: dict = {}
    worst = 0.0
    with GraderWorker() as worker:
        for eid in ids:
            spec = bank.exercises[eid].model_dump()
            folder = bank.exercise_dirs[eid]
            times = []
            for _ in range(ROUNDS):
                t = time.perf_counter()
                result = worker.grade(spec, folder, folder / "solution.py", device="cpu")
                times.append((time.perf_counter() - t) * 1000)
                assert result.status == "pass", result.to_dict()
            median = statistics.median(times)
            figures[f"kernel_{eid.removeprefix('triton-').replace('-', '_')}_ms"] = round(median, 1)
            worst = max(worst, median / 1000 / float(spec["time_limit_s"]))
    figures["kernel_worst_share_of_limit"] = round(worst, 3)
    return figures
