"""Grade one learner file against an exercise's checks (runs in the worker, which has torch)."""

from __future__ import annotations

import signal
import time
import traceback
import types
from pathlib import Path
from typing import Any, Callable

from quiz.grader import harness, verdict
from quiz.grader import inputs as I
from quiz.grader.mistakes import explain
from quiz.grader.results import ERROR, FAIL, PASS, TIMEOUT, Result, TestResult, overall
from quiz.grader.sandbox import ChildOutcome, run_limited



def check_name(check: dict) -> str:
    if check.get("name"):
        return check["name"]
    shapes = [str(tuple(a["tensor"]["shape"])) for a in check.get("args", []) if a.get("tensor")]
    label = {"gradcheck": "gradcheck float64", "gradgradcheck": "gradgradcheck float64", "reference": "matches reference"}.get(check["kind"], check.get("function") or check["kind"])
    return f"{label} {' '.join(shapes)}".strip()


def grade(exercise: dict, folder: Path, file: Path, load_helpers: Callable[[Path], Any]) -> Result:
    start = time.perf_counter()
    exercise_id = exercise["id"]
    elapsed = lambda: int((time.perf_counter() - start) * 1000)  # noqa: E731
    try:
        source = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Result(exercise_id, ERROR, f"cannot read {file}: {exc}", elapsed())
    try:
        code = compile(source, str(file), "exec")
    except SyntaxError as exc:
        message = f"syntax error at line {exc.lineno}, column {exc.offset}: {exc.msg}"
        return Result(exercise_id, ERROR, message, elapsed(), [TestResult("compile", ERROR, message)])
    helpers = load_helpers(folder)
    deadline = start + float(exercise.get("time_limit_s", 10))
    tests: list[TestResult] = []
    for check in exercise["checks"]:
        name = check_name(check)
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            tests.append(TestResult(name, TIMEOUT, "not run: the exercise's time limit was used up by earlier checks"))
            continue
        limit = float(exercise.get("time_limit_s", 10))
        outcome = run_limited(lambda: _child(code, str(file), exercise, check, helpers), remaining)
        test = _judge(name, check, outcome, helpers, limit)
        if test.status == FAIL and test.message == verdict.NEEDS_FULL:
            # the fast projection disagreed: measure whole Jacobians to say which element is wrong
            full = dict(check, full=True)
            remaining = max(deadline - time.perf_counter(), 0.5)
            outcome = run_limited(lambda: _child(code, str(file), exercise, full, helpers), remaining)
            test = _judge(name, full, outcome, helpers, limit)
        test.output = outcome.output
        tests.append(test)
        if test.status in (TIMEOUT, ERROR):
            for rest in exercise["checks"][len(tests):]:
                tests.append(TestResult(check_name(rest), test.status, "not run after the previous check's " + test.status))
            break
    result = overall(exercise_id, tests, elapsed())
    if result.status == ERROR and tests and tests[0].status == ERROR:
        result.message = tests[0].message
    return result


def _child(code, filename: str, exercise: dict, check: dict, helpers: Any) -> dict:
    """Runs in the forked child: load the learner's code, measure, report plain data."""
    entry_name = exercise["entry"]
    saved = harness.snapshot()
    try:
        module = types.ModuleType("learner")
        module.__file__ = filename
        exec(code, module.__dict__)
        patched = harness.restore(saved)
        entry = getattr(module, entry_name, None)
        if entry is None:
            names = sorted(n for n in vars(module) if not n.startswith("_") and n[0].isupper())
            found = f" (it defines: {', '.join(names)})" if names else ""
            return {"ok": False, "status": ERROR, "message": f"your file does not define {entry_name!r}{found}"}
        if exercise.get("autograd_function") and not harness.is_function_class(entry):
            return {"ok": False, "status": FAIL, "message": (
                f"{entry_name} must be a class that subclasses torch.autograd.Function, used through "
                f"{entry_name}.apply(...); calling its forward directly bypasses your backward, since autograd "
                "then records the ops inside forward instead."
            )}
        data = _measure(entry, check, helpers)
        patched += harness.restore(saved)
        return {"ok": True, "data": data, "patched": sorted(set(patched))}
    except BaseException as exc:  # noqa: BLE001 - everything the learner's code raises is reported
        harness.restore(saved)
        return {"ok": False, "exc": type(exc).__name__, "message": str(exc)[:2000], "line": _learner_line(exc, filename)}


def _measure(entry: Any, check: dict, helpers: Any) -> dict:
    args = I.build_args(check.get("args", []), check.get("seed", 0), helpers)
    kind = check["kind"]
    if kind in ("gradcheck", "gradgradcheck"):
        return harness.check_gradcheck(entry, args, float(check.get("eps", 1e-6)), kind == "gradgradcheck", bool(check.get("full")))
    if kind == "reference":
        return harness.check_reference(entry, args, check.get("seed", 0), bool(check.get("grads", True)))
    return harness.check_function(entry, helpers, check["function"])


def _learner_line(exc: BaseException, filename: str) -> int | None:
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def _judge(name: str, check: dict, outcome: ChildOutcome, helpers: Any, limit_s: float) -> TestResult:
    if outcome.timed_out:
        return TestResult(name, TIMEOUT, f"still running after the {limit_s:g} s limit: an endless loop, or far too much work")
    if outcome.data is None:
        return TestResult(name, ERROR, _no_report(outcome))
    data = outcome.data
    if not data.get("ok"):
        if data.get("status") in (ERROR, FAIL):
            return TestResult(name, data["status"], data["message"])
        names = [a.get("name") or "" for a in check.get("args", [])]
        status, message = explain(data.get("exc", ""), data.get("message", ""), names)
        if data.get("line"):
            message = f"line {data['line']}: {message}"
        return TestResult(name, status, message)
    if data.get("patched"):
        note = ", ".join(data["patched"])
        return TestResult(name, FAIL, f"your code replaced {note}; graded code may not patch torch's own functions")
    arg_names = [a.get("name") or "" for a in check.get("args", [])]
    kind, measured = check["kind"], data["data"]
    atol, rtol = float(check.get("atol", 1e-6)), float(check.get("rtol", 1e-5))
    if kind in ("gradcheck", "gradgradcheck"):
        return verdict.judge_gradcheck(name, measured, arg_names, atol, rtol, kind == "gradgradcheck")
    if kind == "reference":
        return _judge_reference(name, check, measured, helpers, arg_names, atol, rtol)
    if measured.get("ok"):
        return TestResult(name, PASS, "passed")
    return TestResult(name, FAIL, measured.get("message", "failed"))


def _judge_reference(name, check, measured, helpers, arg_names, atol, rtol) -> TestResult:
    """Compute the expected values here, on the trusted side, from the same seeded inputs."""
    import torch

    ref = resolve_reference(check["reference"], helpers)
    args = I.build_args(check.get("args", []), check.get("seed", 0), helpers)
    diff = I.differentiable(args)
    outs = I.tensors_of(ref(*args))
    expected_grads = None
    if check.get("grads", True) and diff:
        vs = I.grad_outputs_for(outs, check.get("seed", 0))
        grads = torch.autograd.grad(outs, [args[i] for i in diff], grad_outputs=vs, allow_unused=True)
        expected_grads = [g.detach() if g is not None else None for g in grads]
    outs = [o.detach() for o in outs]
    return verdict.judge_reference(name, measured, outs, expected_grads, arg_names, diff, atol, rtol)


def resolve_reference(target: str, helpers: Any) -> Callable:
    """`checks:NAME` (a function in the exercise's checks.py) or a dotted torch path."""
    if target.startswith("checks:"):
        return getattr(helpers, target.split(":", 1)[1])
    import importlib

    module_name, _, attr = target.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


def _no_report(outcome: ChildOutcome) -> str:
    if outcome.signal is not None:
        try:
            sig = signal.Signals(outcome.signal).name
        except ValueError:
            sig = f"signal {outcome.signal}"
        if sig == "SIGXCPU":
            return "used more CPU time than the limit allows"
        if sig == "SIGKILL":
            return "killed (SIGKILL): most often the memory limit"
        return f"your code crashed the process ({sig}), e.g. a segfault from ctypes or a native extension"
    if outcome.exit_code == 0:
        return "the process exited before reporting a result: do not call os._exit() or sys.exit() in graded code"
    return f"the process exited with status {outcome.exit_code} before reporting a result"
