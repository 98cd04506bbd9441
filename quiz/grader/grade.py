"""Grade one learner file (runs in the worker, which never runs learner code itself): the learner's
child measures every check, a separate judge process decides, and this module turns both into results."""

from __future__ import annotations

import re
import secrets
import signal
import time
from pathlib import Path

from quiz.grader import judge, learner
from quiz.grader.mistakes import explain
from quiz.grader.results import ERROR, FAIL, TIMEOUT, Result, TestResult, overall
from quiz.grader.safe_read import SourceError, read_source
from quiz.grader.sandbox import ChildOutcome, net_fences, prepare_scratch, run_limited
from quiz.grader.say import say
from quiz.grader.triton_support import available, install_hint, uses_kernels

JUDGE_LIMIT_S = 60.0


def check_name(check: dict) -> str:
    name = check.get("name")
    if isinstance(name, dict):
        return say(name.get("en") or name.get("zh") or "", name.get("zh") or name.get("en") or "")
    if name:
        return name
    shapes = [str(tuple(a["tensor"]["shape"])) for a in check.get("args", []) if a.get("tensor")]
    label = {
        "gradcheck": say("gradients float64", "梯度 float64"),
        "gradgradcheck": say("second-order gradients float64", "二阶梯度 float64"),
        "reference": say("matches reference", "与参考实现一致"),
        "saved": say("what backward keeps", "backward 保存的内容"),
    }.get(check["kind"], check.get("function") or check["kind"])
    return f"{label} {' '.join(shapes)}".strip()


def grade(
    exercise: dict, folder: Path, file: Path, scratch: str, fences: list[str] | None = None, device: str = "cpu"
) -> Result:
    start = time.perf_counter()
    exercise_id = exercise["id"]
    elapsed = lambda: int((time.perf_counter() - start) * 1000)  # noqa: E731
    gpu = False
    if uses_kernels(exercise):
        if not available():
            return Result(exercise_id, ERROR, install_hint(), elapsed(), protections=fences or [])
        # triton is imported in the check's child, never here: the interpreter must be chosen before the
        # import (triton.language's own helpers are decorated when it loads)
        exercise = dict(exercise, device=device)
        gpu = device == "cuda"
    try:
        source = read_source(file)
    except SourceError as exc:
        return Result(exercise_id, ERROR, str(exc), elapsed(), protections=fences or [])
    try:
        code = compile(source, str(file), "exec")
    except (SyntaxError, ValueError) as exc:
        where = (
            say(f" at line {exc.lineno}, column {exc.offset}", f"（第 {exc.lineno} 行，第 {exc.offset} 列）")
            if isinstance(exc, SyntaxError)
            else ""
        )
        message = say(
            f"syntax error{where}: {getattr(exc, 'msg', str(exc))}", f"语法错误{where}：{getattr(exc, 'msg', str(exc))}"
        )
        return Result(
            exercise_id,
            ERROR,
            message,
            elapsed(),
            [TestResult(say("compile", "编译"), ERROR, message)],
            protections=fences or [],
        )
    plans = [
        {"index": i, "check": c, "seed": secrets.randbelow(2**31 - 1) + 1, "name": check_name(c)}
        for i, c in enumerate(exercise["checks"])
    ]
    limit = float(exercise.get("time_limit_s", 10))
    learner_dir, judge_dir = f"{scratch}/learner", f"{scratch}/judge"
    prepare_scratch(learner_dir)
    net = any(c.get("kind") == "distributed" for c in exercise["checks"])
    if net:
        fences = net_fences(fences or [])
        _preload_for_ranks()
    outcome = run_limited(
        lambda emit: learner.run(code, str(file), exercise, folder, plans, emit), limit, learner_dir, gpu=gpu, net=net
    )
    records, problem = _records(outcome, plans, exercise["entry"])
    tests: list[TestResult] = []
    by_index: dict = {}
    if problem is None and records:
        if _builtin(folder):  # the bank's own checks.py: trusted code, judged here, without another fork
            verdicts: list[dict] = []
            judge.run(exercise, folder, plans, records, verdicts.append)
        else:  # a pack's checks.py is code from elsewhere: judged in a fenced process of its own
            prepare_scratch(judge_dir)
            verdicts = run_limited(
                lambda emit: judge.run(exercise, folder, plans, records, emit),
                max(JUDGE_LIMIT_S, 3 * limit),
                judge_dir,
                pids=False,
            ).records
        by_index = {v.get("index"): v for v in verdicts}
    for plan in plans:
        i = plan["index"]
        if problem is not None:
            tests.append(
                TestResult(
                    plan["name"],
                    problem[0],
                    problem[1] if not tests else say(f"not run: {problem[1]}", f"未运行：{problem[1]}"),
                )
            )
            continue
        if i not in records:
            if outcome.timed_out:
                first = not any(t.status == TIMEOUT for t in tests)
                tests.append(
                    TestResult(
                        plan["name"],
                        TIMEOUT,
                        say(
                            f"still running after the {limit:g} s limit: an endless loop, or far too much work",
                            f"超过 {limit:g} 秒的时限仍在运行：死循环，或者计算量过大",
                        )
                        if first
                        else say(
                            "not run: the time limit was used up by earlier checks", "未运行：时限已被前面的检查用完"
                        ),
                    )
                )
            else:
                tests.append(TestResult(plan["name"], ERROR, _no_report(outcome)))
            continue
        verdict = by_index.get(i)
        if verdict is None or verdict.get("status") not in ("pass", "fail", "error", "timeout"):
            tests.append(
                TestResult(
                    plan["name"],
                    ERROR,
                    say(
                        "the judge gave no verdict for this check (grader problem)",
                        "评判进程没有给出这项检查的结论（评测器自身的问题）",
                    ),
                )
            )
        else:
            tests.append(TestResult(plan["name"], verdict["status"], str(verdict.get("message", ""))))
    if tests:
        tests[0].output = _without_grader_noise(outcome.output)
    result = overall(exercise_id, tests, elapsed())
    result.protections = list(fences or [])
    if result.status == ERROR and tests and tests[0].status == ERROR:
        result.message = tests[0].message
    return result


# what torch.distributed prints about the grader's own loopback set-up, not about the learner's code
_NOISE = re.compile(
    r"^\[W\d+ [\d:.]+ socket\.cpp:\d+\] \[c10d\] The hostname of the client socket cannot be retrieved\..*$\n?", re.M
)


def _without_grader_noise(output: str) -> str:
    return _NOISE.sub("", output)


def _preload_for_ranks() -> None:
    """DistributedDataParallel imports torch._dynamo on first use, which takes seconds: imported once here,
    in the worker, every check's ranks inherit it instead of each importing it at the same time. Triton is
    kept out while it loads: a kernel check's child must import Triton itself, after choosing the interpreter."""
    import sys

    if "torch._dynamo" in sys.modules:
        return
    keep_out = "triton" not in sys.modules
    if keep_out:
        sys.modules["triton"] = None  # type: ignore[assignment]  # makes `import triton` raise ImportError
    try:
        import torch._dynamo  # noqa: F401
    finally:
        if keep_out and "triton" in sys.modules and sys.modules["triton"] is None:
            del sys.modules["triton"]


def _builtin(folder: Path) -> bool:
    from quiz import paths

    root = paths.builtin_content_dir().resolve()
    folder = Path(folder).resolve()
    return folder == root or root in folder.parents


def _records(outcome: ChildOutcome, plans: list[dict], entry: str) -> tuple[dict[int, dict], tuple[str, str] | None]:
    """The child's records by check index, or a (status, message) that applies to every check."""
    known = {p["index"] for p in plans}
    records: dict[int, dict] = {}
    for record in outcome.records:
        if "load_error" in record:
            info = record["load_error"] if type(record["load_error"]) is dict else {}
            status, message = explain(str(info.get("type", "")), str(info.get("message", "")))
            if type(info.get("line")) is int:
                message = say(f"line {info['line']}: {message}", f"第 {info['line']} 行：{message}")
            return {}, (
                status if status == ERROR else FAIL,
                say(f"loading your file failed: {message}", f"加载你的文件失败：{message}"),
            )
        if "missing_entry" in record:
            return {}, (ERROR, _missing_entry(entry, record["missing_entry"]))
        index = record.get("index")
        if (
            type(index) is not int
            or index not in known
            or index in records
            or not ({"data"} == set(record) - {"index"} or {"raised"} == set(record) - {"index"})
        ):
            return {}, (
                ERROR,
                say(
                    "the check process reported something it never could: your code wrote to the grader's result channel",
                    "检查进程报告了它不可能报告的内容：你的代码写入了评测器的结果通道",
                ),
            )
        records[index] = record
    if outcome.garbled:
        return {}, (
            ERROR,
            say(
                "the check process's result channel held garbage: your code wrote to the grader's result channel",
                "检查进程的结果通道里是乱码：你的代码写入了评测器的结果通道",
            ),
        )
    return records, None


def _missing_entry(entry: str, names: object) -> str:
    listed = [str(n)[:80] for n in names][:20] if isinstance(names, list) else []
    found = say(f" (it defines: {', '.join(listed)})", f"（文件里定义了：{', '.join(listed)}）") if listed else ""
    return say(f"your file does not define {entry!r}{found}", f"你的文件没有定义 {entry!r}{found}")


def _no_report(outcome: ChildOutcome) -> str:
    if outcome.signal is not None:
        try:
            sig = signal.Signals(outcome.signal).name
        except ValueError:
            sig = say(f"signal {outcome.signal}", f"信号 {outcome.signal}")
        if sig == "SIGXCPU":
            return say("used more CPU time than the limit allows", "CPU 时间超出了上限")
        if sig == "SIGKILL":
            return say(
                "killed (SIGKILL): most often the memory limit", "进程被杀死（SIGKILL）：最常见的原因是超出内存上限"
            )
        return say(
            f"your code crashed the process ({sig}), e.g. a segfault from ctypes or a native extension",
            f"你的代码让进程崩溃了（{sig}），比如 ctypes 或原生扩展引发的 segfault",
        )
    if outcome.exit_code == 0:
        return say(
            "the process exited before reporting a result: do not call os._exit() or sys.exit() in graded code",
            "进程在报告结果之前就退出了：被评测的代码里不要调用 os._exit() 或 sys.exit()",
        )
    return say(
        f"the process exited with status {outcome.exit_code} before reporting a result",
        f"进程在报告结果之前以状态码 {outcome.exit_code} 退出",
    )
