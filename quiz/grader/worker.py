"""The grader worker: imports torch once, stays warm, forks one limited child per check.

Protocol: one JSON request per line on stdin, one JSON reply per line on the original stdout.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any



def _protocol_out():
    """Keep the real stdout for replies; anything else printed goes to stderr."""
    fd = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(fd, "w", buffering=1, encoding="utf-8")


def warm_up() -> None:
    import torch

    torch.set_num_threads(1)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    torch.autograd.gradcheck(torch.sin, (x,))
    import quiz.grader.harness  # noqa: F401
    import quiz.grader.verdict  # noqa: F401


def load_helpers(folder: Path) -> Any:
    """The exercise's own checks.py (trusted content), or None."""
    path = folder / "checks.py"
    if not path.is_file():
        return None
    module = types.ModuleType("exercise_checks")
    module.__file__ = str(path)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


def handle(request: dict) -> dict:
    from quiz.grader.grade import grade

    op = request.get("op")
    if op == "ping":
        return {"ok": True, "pid": os.getpid()}
    if op == "grade":
        return grade(request["exercise"], Path(request["dir"]), Path(request["file"]), load_helpers).to_dict()
    return {"error": f"unknown op {op!r}"}


def main() -> None:
    out = _protocol_out()
    start = time.perf_counter()
    warm_up()
    out.write(json.dumps({"ready": True, "pid": os.getpid(), "start_ms": int((time.perf_counter() - start) * 1000)}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if request.get("op") == "quit":
                break
            reply = handle(request)
        except Exception as exc:  # noqa: BLE001 - report, keep serving
            reply = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(limit=5)}
        out.write(json.dumps(reply, allow_nan=True) + "\n")


if __name__ == "__main__":
    main()
