"""Run the benchmarks, print one JSON object of figures with their targets, and exit 1 when a target is missed."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

GROUPS = {"content": "bench_content", "help": "bench_help", "srs": "bench_srs", "grader": "bench_grader",
          "kernels": "bench_kernels", "distributed": "bench_distributed",
          "tui": "bench_tui"}
TARGETS = {  # figure: (comparison, limit)
    "bank_load_ms": ("<=", 150),  # imports included, as the app pays them at start
    "help_start_ms": ("<=", 150),
    "store_open_ms_100k_log": ("<=", 600),
    "queue_build_ms_10k": ("<=", 100),
    "rate_ms_median": ("<=", 16),  # the whole rating path, queue rebuild included: within one 60 Hz frame
    "check_warm_ms_median": ("<=", 80),
    "check_speedup": (">=", 15),
    "kernel_worst_share_of_limit": ("<=", 0.5),
    "dist_worst_share_of_limit": ("<=", 0.25),
    "tui_first_frame_ms": ("<=", 600),
    "tui_peak_rss_mb": ("<=", 150),
}
LOOSE = 4  # --loose: limits this many times wider, for a shared, noisy CI machine


def limit_for(op: str, limit: float, loose: bool) -> float:
    if not loose:
        return limit
    return limit * LOOSE if op == "<=" else limit / LOOSE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON only (the default prints JSON too)")
    parser.add_argument("--only", default="", help="comma-separated groups: " + ",".join(GROUPS))
    parser.add_argument("--loose", action="store_true", help=f"hold figures to targets {LOOSE} times looser")
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
    targets = {}
    for name, (op, limit) in TARGETS.items():
        if name in figures:
            value, limit = figures[name], limit_for(op, limit, args.loose)
            met[name] = value <= limit if op == "<=" else value >= limit
            targets[name] = f"{op} {limit:g}"
    out = {
        "figures": figures,
        "targets": targets,
        "met": met,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
    }
    print(json.dumps(out, indent=2))
    missed = sorted(name for name, ok in met.items() if not ok)
    if missed:
        print(f"missed targets: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
