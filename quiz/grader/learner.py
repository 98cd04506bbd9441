"""The learner half of a grade, run in the fenced child: load the learner's file, run every check's
measurement on the inputs its seed gives, and emit one record per check. Nothing here decides."""

from __future__ import annotations

import os
import time
import types
from pathlib import Path
from typing import Any, Callable

from quiz.grader.kinds import kernel, module_for
from quiz.grader.loading import load_module
from quiz.grader.mistakes import learner_line

Emit = Callable[[dict], None]


def run(code: Any, filename: str, exercise: dict, folder: Path, plans: list[dict], emit: Emit) -> None:
    budget_end = time.monotonic() + float(exercise.get("time_limit_s", 10)) - 1.0
    helpers = load_module(folder / "checks.py", "exercise_checks")
    if kernel.uses_kernels(exercise):
        try:
            kernel.prepare(filename, exercise.get("device", "cpu"), os.getcwd())
        except ImportError as exc:
            emit(
                {
                    "load_error": {
                        "type": "ImportError",
                        "message": f"{kernel.install_hint()} ({exc})"[:2000],
                        "line": None,
                    }
                }
            )
            return
    module = types.ModuleType("learner")
    module.__file__ = filename
    try:
        exec(code, module.__dict__)
    except BaseException as exc:  # noqa: BLE001 - reported; the judge decides what it means
        emit(
            {
                "load_error": {
                    "type": type(exc).__name__[:80],
                    "message": str(exc)[:2000],
                    "line": learner_line(exc, filename),
                }
            }
        )
        return
    entry = getattr(module, exercise["entry"], None)
    if entry is None:
        names = sorted(n for n in vars(module) if not n.startswith("_") and n[:1].isupper())
        emit({"missing_entry": names[:20]})
        return
    for plan in plans:
        check = dict(
            plan["check"],
            autograd_function=bool(exercise.get("autograd_function")),
            device=exercise.get("device", "cpu"),
            budget_end=budget_end,
        )
        kind = module_for(check["kind"])
        try:
            if kind.KINDS in (("function",), ("distributed",)):
                data = kind.measure(entry, check, plan["seed"], helpers, filename)
            else:
                data = kind.measure(entry, check, plan["seed"], helpers)
            emit({"index": plan["index"], "data": data})
        except BaseException as exc:  # noqa: BLE001 - everything the learner's code raises is reported
            from quiz.grader.kinds.autograd import style_hint

            emit(
                {
                    "index": plan["index"],
                    "raised": {
                        "type": type(exc).__name__[:80],
                        "message": str(exc)[:2000],
                        "line": learner_line(exc, filename),
                        "hint": style_hint(entry)[:400],
                    },
                }
            )
