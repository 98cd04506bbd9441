"""The trusted half of a grade, run in its own fenced fork (no learner code has ever run in it): rebuild
every check's inputs from its seed, compute the reference, and judge the raw values the learner's child
reported. A record it cannot read is a failure, never a pass."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Callable

from quiz.content.references import reference_problem
from quiz.grader import wire
from quiz.grader.kinds import autograd, module_for
from quiz.grader.loading import load_module
from quiz.grader.mistakes import explain
from quiz.grader.results import ERROR, FAIL
from quiz.grader.say import say

Emit = Callable[[dict], None]


class Context:
    def __init__(self, exercise: dict, folder: Path):
        self.exercise, self.folder = exercise, folder
        self.entry = exercise["entry"]
        self.autograd_function = bool(exercise.get("autograd_function"))
        self.helpers = load_module(folder / "checks.py", "exercise_checks")
        self._solution: Any = None
        self.name = ""

    def reference(self, check: dict) -> Callable:
        target = check.get("reference")
        if not target:
            if self._solution is None:
                module = load_module(self.folder / "solution.py", "exercise_solution")
                if module is None or not hasattr(module, self.entry):
                    raise LookupError(
                        say(
                            "the exercise has no solution.py defining its entry to judge against",
                            "本题没有可供对照评判的 solution.py（需定义入口）",
                        )
                    )
                self._solution = getattr(module, self.entry)
            return self._solution
        problem = reference_problem(target)
        if problem:
            raise LookupError(problem)
        if target.startswith("checks:"):
            return getattr(self.helpers, target.split(":", 1)[1])
        namespace, _, attr = target.rpartition(".")
        return getattr(importlib.import_module(namespace), attr)

    def hint_for_output(self, check: dict, args: list, got: Any) -> str:
        hint = getattr(self.helpers, "hint_output", None)
        if hint is None:
            return ""
        try:
            text = hint(check, args, got)
        except Exception:  # noqa: BLE001 - a hint is optional
            return ""
        return f" {text}" if text else ""


def judge_record(ctx: Context, plan: dict, record: dict, arg_names: list[str]) -> tuple[str, str]:
    """(status, message) for one check's record."""
    if "raised" in record:
        info = record["raised"] if type(record["raised"]) is dict else {}
        status, message = explain(str(info.get("type", "")), str(info.get("message", "")), arg_names)
        if type(info.get("line")) is int:
            message = say(f"line {info['line']}: {message}", f"第 {info['line']} 行：{message}")
        if type(info.get("hint")) is str and info["hint"] and status == FAIL:
            message += info["hint"]
        return status, message
    check = plan["check"]
    try:
        test = module_for(check["kind"]).judge(check, plan["seed"], record.get("data"), ctx)
    except (wire.WireError, autograd.Malformed) as exc:
        return FAIL, say(f"what your code reported could not be judged: {exc}", f"无法评判你的代码报告的内容：{exc}")
    except (TypeError, ValueError, KeyError, IndexError, RuntimeError) as exc:
        return FAIL, say(
            f"what your code returned has the wrong form ({type(exc).__name__}: {exc})",
            f"你的代码返回值的形式不对（{type(exc).__name__}: {exc}）",
        )
    return test.status, test.message


def run(exercise: dict, folder: Path, plans: list[dict], records: dict[int, dict], emit: Emit) -> None:
    import torch

    torch.set_num_threads(1)
    try:
        ctx = Context(exercise, folder)
    except Exception as exc:  # noqa: BLE001 - a broken checks.py is the exercise's error, not the learner's
        for plan in plans:
            emit(
                {
                    "index": plan["index"],
                    "status": ERROR,
                    "message": say(
                        f"the exercise's checks could not load: {type(exc).__name__}: {exc}",
                        f"本题的 checks 无法加载：{type(exc).__name__}: {exc}",
                    ),
                }
            )
        return
    for plan in plans:
        record = records.get(plan["index"])
        if record is None:
            continue
        ctx.name = plan["name"]
        arg_names = [a.get("name") or "" for a in plan["check"].get("args", [])]
        try:
            status, message = judge_record(ctx, plan, record, arg_names)
        except LookupError as exc:
            status, message = ERROR, say(f"the exercise is broken: {exc}", f"本题本身有问题：{exc}")
        emit({"index": plan["index"], "status": status, "message": message})
