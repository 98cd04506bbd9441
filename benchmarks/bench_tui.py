"""tui_first_frame_ms (process start to the home screen drawn) and tui_peak_rss_mb (after every screen)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROBE = Path(__file__).parent / "tui_probe.py"


def _first_frame_ms() -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(PROBE), "first-frame"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ))
    for line in proc.stdout:
        if line.strip() == "ready":
            elapsed = (time.perf_counter() - start) * 1000
            break
    else:
        raise RuntimeError("the app never reported its first frame")
    proc.wait(timeout=30)
    return elapsed


def run() -> dict:
    _first_frame_ms()  # warm the content cache and the OS file cache, as on a second start
    frames = [_first_frame_ms() for _ in range(5)]
    out = subprocess.run([sys.executable, str(PROBE), "every-screen"], capture_output=True, text=True, check=True,
                         timeout=300)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["heavy"] == [], report["heavy"]
    return {"tui_first_frame_ms": round(statistics.median(frames), 1), "tui_peak_rss_mb": report["peak_rss_mb"]}
