"""dist_<exercise>_ms: grading each multi-process (torch.distributed, gloo) exercise's solution through a warm
worker, median of 3; dist_first_grade_ms: the first such grade in a fresh worker, which also imports what
DistributedDataParallel needs (torch._dynamo); dist_worst_share_of_limit: the largest median / time_limit_s."""

from __future__ import annotations

import statistics
import time

from quiz import paths
from quiz.content.loader import load_bank
from quiz.grader.runner import GraderWorker

ROUNDS = 3


def _distributed(spec: dict) -> bool:
    return any(c.get("kind") == "distributed" for c in spec["checks"])


def run() -> dict:
    builtin = paths.builtin_content_dir()
    bank = load_bank([builtin], builtin=builtin)
    ids = sorted(e for e in bank.exercises if _distributed(bank.exercises[e].model_dump()))
    figures: dict = {}
    worst = 0.0
    with GraderWorker() as worker:
        for n, eid in enumerate(ids):
            spec = bank.exercises[eid].model_dump()
            folder = bank.exercise_dirs[eid]
            times = []
            for _ in range(ROUNDS + (n == 0)):
                t = time.perf_counter()
                result = worker.grade(spec, folder, folder / "solution.py")
                times.append((time.perf_counter() - t) * 1000)
                assert result.status == "pass", result.to_dict()
            if n == 0:
                figures["dist_first_grade_ms"] = round(times.pop(0), 1)
            median = statistics.median(times)
            figures[f"dist_{eid.removesuffix('-dist').replace('-', '_')}_ms"] = round(median, 1)
            worst = max(worst, median / 1000 / float(spec["time_limit_s"]))
    figures["dist_worst_share_of_limit"] = round(worst, 3)
    return figures
