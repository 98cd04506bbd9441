"""Multi-process checks on the real torch.distributed (gloo, loopback): the learner's child forks
`world_size` ranks (quiz.grader.ranks); each runs checks.py's rank function, `def run_x(entry, rank,
world_size, seed)`, with the process group set up, and reports what it returned plus what it sent through
torch.distributed. The judge gets one `RankReport` per rank, rebuilt from plain data, and runs checks.py's
judge function, `def judge_x(reports, world_size, seed)`, which recomputes every rank's inputs from the seed
and raises `AssertionError(message)` naming the rank and step that diverge."""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass, field
from typing import Any

from quiz.grader import wire
from quiz.grader.kinds.function import wrong_form
from quiz.grader.mistakes import explain
from quiz.grader.results import ERROR, FAIL, PASS, TIMEOUT, TestResult
from quiz.grader.say import say

KINDS = ("distributed",)
STATUSES = ("returned", "raised", "waiting", "died", "setup_error")
DEFAULT_TIMEOUT_S = 5.0
MARGIN_S = 1.0  # kept back from the exercise's time limit, so the child can report a hang itself


# ---------------------------------------------------------------- learner side (runs in the fenced child)


def measure(entry: Any, check: dict, seed: int, helpers: Any, filename: str) -> dict:
    from quiz.grader import ranks

    body = getattr(helpers, check["function"])
    world = int(check.get("world_size", 2))
    wait = float(check.get("timeout_s") or DEFAULT_TIMEOUT_S)
    budget_end = check.get("budget_end")
    if isinstance(budget_end, float):
        wait = max(0.5, min(wait, budget_end - time.monotonic()))
    started = ranks.start(world, lambda rank, size: body(entry, rank, size, seed), filename)
    return {"ranks": ranks.supervise(started, wait), "waited_s": wait}


# ---------------------------------------------------------------- trusted side (the judge)


@dataclass
class RankReport:
    """What one rank returned, and what it moved through torch.distributed (per operation: calls and bytes)."""

    rank: int
    result: Any
    calls: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)

    @property
    def sent_p2p(self) -> int:
        """Bytes this rank sent with send/isend."""
        return self.bytes.get("send", 0) + self.bytes.get("isend", 0)

    def collective_calls(self) -> dict[str, int]:
        return {op: n for op, n in self.calls.items() if op not in ("send", "recv", "isend", "irecv") and n}


def _counts(value: Any) -> dict[str, int]:
    if type(value) is not dict or not all(type(k) is str and type(v) is int and v >= 0 for k, v in value.items()):
        raise wire.WireError("comm counts: a mapping of operation to count")
    return dict(value)


def _op_text(op: Any) -> str:
    if type(op) is not dict or type(op.get("op")) is not str:
        return say("its own code (no communication call)", "它自己的代码里（不在通信调用中）")
    peer = op.get("peer")
    name = op["op"][:40]
    base, _, waited = name.partition(".")
    arg = "src" if base in ("recv", "irecv", "broadcast") else "dst"
    text = f"{base}({arg}={peer})" if type(peer) is int else f"{base}()"
    if waited:
        text = say(f"wait() on {text}", f"{text} 的 wait()")
    call = op.get("call")
    if type(call) is int:
        text += say(f", its communication call {call}", f"，它的第 {call} 次通信调用")
    return text


def _hang_message(reports: list[dict], waited: Any) -> str:
    lines = []
    for rank, r in enumerate(reports):
        if r.get("status") != "waiting":
            continue
        where = _op_text(r.get("pending")) if r.get("pending") else _op_text(None)
        lines.append(say(f"rank {rank} was in {where}", f"rank {rank} 停在 {where}"))
    seconds = f"{float(waited):g}" if type(waited) in (int, float) else "?"
    ids = [str(i) for i, r in enumerate(reports) if r.get("status") == "waiting"]
    waiting = ", ".join(ids)
    who = f"ranks {waiting} were" if len(ids) > 1 else f"rank {waiting} was"
    return say(
        f"{who} still waiting after {seconds} s ({'; '.join(lines)}). Usual causes: a send "
        "without a matching receive (every rank receiving first, or sending to the wrong peer), a collective "
        "that not every rank calls, or ranks that disagree on the number of steps",
        f"{seconds} 秒后 rank {waiting} 仍在等待（{'；'.join(lines)}）。常见原因：send 没有对应的 recv"
        "（所有 rank 都先 recv，或发给了错误的 peer）、某个 collective 不是每个 rank 都调用、各 rank 的步数不一致",
    )


def _knock_on(r: dict) -> int:
    """How much a rank's failure is only the consequence of another's: 0 failed on its own, 1 its error says a
    peer went away, 2 it was still waiting when the others' failure ended the check."""
    if r["status"] == "waiting":
        return 2
    info: dict = r["raised"] if type(r.get("raised")) is dict else {}
    text = str(info.get("message", "")).lower()
    peer_gone = any(s in text for s in ("connection closed", "connection reset", "broken pipe"))
    return int(r["status"] == "raised" and peer_gone)


def _rank_failure(rank: int, r: dict, reports: list[dict]) -> tuple[str, str]:
    status = r["status"]
    if status == "raised":
        info: dict = r["raised"] if type(r.get("raised")) is dict else {}
        kind, message = explain(str(info.get("type", "")), str(info.get("message", "")), [])
        if type(info.get("line")) is int:
            message = say(f"line {info['line']}: {message}", f"第 {info['line']} 行：{message}")
        return kind, say(f"rank {rank}: {message}", f"rank {rank}：{message}")
    if status == "setup_error":
        text = str(r.get("setup_error", ""))[:500]
        return ERROR, say(
            f"rank {rank} could not join the process group the grader sets up (if your file creates one itself "
            f"when it is loaded, leave that to the grader): {text}",
            f"rank {rank} 无法加入评测器建立的进程组（如果你的文件在加载时自己建立了进程组，请交给评测器来做）：{text}",
        )
    sig = r.get("signal")
    how = (
        say(f"signal {sig}", f"信号 {sig}")
        if type(sig) is int
        else say(f"exit status {r.get('exit_code')}", f"退出码 {r.get('exit_code')}")
    )
    if sig == signal.SIGABRT:
        return FAIL, say(
            f"rank {rank} was aborted (SIGABRT) before it returned: most often gloo stopping on a message that does "
            "not fit the buffer posted to receive it (a different dtype or size on the two sides); the output shows "
            "gloo's own words",
            f"rank {rank} 在返回之前被中止（SIGABRT）：最常见的原因是 gloo 收到的消息与接收缓冲区不匹配"
            "（两边的 dtype 或大小不同）；输出里有 gloo 自己的报错",
        )
    if sig is not None:
        return FAIL, say(
            f"rank {rank} was killed ({how}) before it returned (a crash in native code, or a resource limit)",
            f"rank {rank} 在返回之前被杀死（{how}）（原生代码崩溃，或超出资源限制）",
        )
    return FAIL, say(
        f"rank {rank} died ({how}) before it returned: do not call sys.exit() or os._exit() in graded code",
        f"rank {rank} 在返回之前退出了（{how}）：被评测的代码里不要调用 sys.exit() 或 os._exit()",
    )


def judge(check: dict, seed: int, data: Any, ctx: Any) -> TestResult:
    name = ctx.name
    world = int(check.get("world_size", 2))
    if type(data) is not dict or set(data) != {"ranks", "waited_s"} or type(data["ranks"]) is not list:
        raise wire.WireError("the report has the wrong fields")
    reports = data["ranks"]
    if len(reports) != world or not all(type(r) is dict and r.get("status") in STATUSES for r in reports):
        raise wire.WireError(f"the report needs one entry per rank ({world})")
    failed_alone = any(r["status"] not in ("returned", "waiting") for r in reports)
    if any(r["status"] == "waiting" for r in reports) and not failed_alone:
        return TestResult(name, TIMEOUT, _hang_message(reports, data["waited_s"]))
    failed = sorted((_knock_on(r), rank) for rank, r in enumerate(reports) if r["status"] != "returned")
    if failed:  # the rank that failed on its own first, not one whose peer vanished under it
        rank = failed[0][1]
        status, message = _rank_failure(rank, reports[rank], reports)
        return TestResult(name, status, message)
    rebuilt = []
    for rank, r in enumerate(reports):
        comm = r.get("comm")
        if type(comm) is not dict or set(comm) != {"calls", "bytes"}:
            raise wire.WireError(f"rank {rank}: the communication counts are missing")
        rebuilt.append(RankReport(rank, wire.decode(r.get("result")), _counts(comm["calls"]), _counts(comm["bytes"])))
    test = getattr(ctx.helpers, str(check.get("judge")), None)
    if test is None:
        raise LookupError(
            say(
                f"the exercise's checks.py has no judge function {check.get('judge')!r}",
                f"本题的 checks.py 里没有评判函数 {check.get('judge')!r}",
            )
        )
    try:
        test(rebuilt, world, seed)
    except AssertionError as exc:
        return TestResult(name, FAIL, str(exc) or say("an assertion failed", "断言失败"))
    except Exception as exc:  # noqa: BLE001 - malformed results break the judge's own code: never a pass
        return TestResult(name, FAIL, wrong_form(exc))
    return TestResult(name, PASS, say("passed", "通过"))
