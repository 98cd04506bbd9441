"""Run the benchmarks and print one JSON object of figures, with their targets and whether they are met."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

GROUPS = {"content": "bench_content", "srs": "bench_srs", "grader": "bench_grader", "kernels": "bench_kernels",
          "tui": "bench_tui"}
TARGETS = {  # figure: (comparison, limit)
    "bank_load_ms": ("<=", 80),
    "help_start_ms": ("<=", 150),
    "queue_build_ms_10k": ("<=", 100),
    "rate_ms_median": ("<=", 5),
    "check_warm_ms_median": ("<=", 80),
    "check_speedup": (">=", 15),
    "kernel_worst_share_of_limit": ("<=", 0.5),
    "tui_first_frame_ms": ("<=", 600),
    "tui_peak_rss_mb": ("<=", 150),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON only (the default prints JSON too)")
    parser.add_argument("--only", default="", help="comma-separated groups: " + ",".join(GROUPS))
    args = parser.parse_args()
    os.environ["QUIZ_HOME"] = tempfile.mkdtemp(prefix="quiz-bench-")
    wanted = [g for g in args.only.split(",") if g] or list(GROUPS)
    figures: dict = {}
    for group in wanted:
        module_name = GROUPS[group]
        if not (Path(__file__).parent / f"{module_name}.py").exists():
            continue
        module = __import__(module_name)
        figures.update(module.run())
    met = {}
    for name, (op, limit) in TARGETS.items():
        if name in figures:
            value = figures[name]
            met[name] = value <= limit if op == "<=" else value >= limit
    out = {
        "figures": figures,
        "targets": {k: f"{op} {v}" for k, (op, v) in TARGETS.items() if k in figures},
        "met": met,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
