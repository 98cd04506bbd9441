"""Start the ranks of a distributed check from the fenced child, and watch them: each rank is a fork of the
child (so it keeps every fence), joins a gloo process group on a loopback port, runs the exercise's rank
function against the learner's entry, and reports through a pipe of its own. The supervisor reads every
pipe until all ranks are done or the deadline passes, then kills whatever is left."""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import time
from datetime import timedelta
from typing import Any, Callable

from quiz.grader import wire
from quiz.grader.commlog import CommLog, install
from quiz.grader.mistakes import learner_line

GRACE_S = 1.5  # how long the other ranks may go on once one rank has failed
LINE_CAP = 1 << 26

RankFn = Callable[[int, int], Any]


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _rank_main(rank: int, world: int, port: int, fd: int, body: RankFn, filename: str) -> None:
    import torch.distributed as dist

    from quiz.grader.sandbox import _PR_SET_PDEATHSIG, _prctl

    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    log = CommLog(fd)
    try:
        dist.init_process_group(
            "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world, timeout=timedelta(seconds=120)
        )
    except Exception as exc:  # noqa: BLE001 - the grader's own setup failed
        log.post({"setup_error": f"{type(exc).__name__}: {exc}"[:2000]})
        return
    barrier = dist.barrier
    install(log)
    try:
        value = body(rank, world)
        log.post({"result": wire.encode(value), "comm": log.totals()})
        barrier()  # stay until every rank is done: a rank's last sends may still be on their way
    except BaseException as exc:  # noqa: BLE001 - reported; the judge decides what it means
        raised = {"type": type(exc).__name__[:80], "message": str(exc)[:2000], "line": learner_line(exc, filename)}
        log.post({"raised": raised, "comm": log.totals()})


def start(world: int, body: RankFn, filename: str) -> list[tuple[int, int]]:
    """Fork `world` ranks; returns (pid, read end of its pipe) for each."""
    port = free_loopback_port()
    ranks: list[tuple[int, int]] = []
    for rank in range(world):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.close(r)
                for _, other in ranks:
                    os.close(other)
                _rank_main(rank, world, port, w, body, filename)
            except BaseException:  # noqa: BLE001 - a rank must never return into the child's loop
                code = 3
            finally:
                os._exit(code)
        os.close(w)
        ranks.append((pid, r))
    return ranks


class _Rank:
    def __init__(self, pid: int, fd: int):
        self.pid, self.fd = pid, fd
        self.buffer = b""
        self.final: dict | None = None  # the rank's last report: result, raised or setup_error
        self.pending: dict | None = None  # the blocking operation it is in, if any
        self.last: dict | None = None  # the last operation it finished
        self.open = True
        self.status: int | None = None

    def feed(self, chunk: bytes) -> None:
        self.buffer += chunk
        if len(self.buffer) > LINE_CAP:
            self.buffer = b""
            self.final = {"setup_error": "a rank wrote more than the report channel holds"}
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if type(message) is not dict:
                continue
            if "op" in message:
                self.pending = message
            elif "done" in message:
                if self.pending is not None and self.pending.get("call") == message["done"]:
                    self.last, self.pending = self.pending, None
            elif self.final is None:
                self.final = message

    def report(self, waited: bool) -> dict:
        out: dict[str, Any] = {"pending": self.pending, "last": self.last}
        final = self.final or {}
        if "result" in final or "raised" in final:
            out["status"] = "returned" if "result" in final else "raised"
            out[out["status"] if out["status"] == "raised" else "result"] = final.get(
                "raised" if out["status"] == "raised" else "result"
            )
            out["comm"] = final.get("comm")
        elif "setup_error" in final:
            out["status"], out["setup_error"] = "setup_error", str(final["setup_error"])[:2000]
        elif waited:
            out["status"] = "waiting"
        else:
            out["status"] = "died"
            out["signal"] = -self.status if self.status is not None and self.status < 0 else None
            out["exit_code"] = self.status if self.status is not None and self.status >= 0 else None
        return out


def supervise(ranks: list[tuple[int, int]], timeout_s: float) -> list[dict]:
    """Read every rank's pipe until all are done or `timeout_s` passes; kill and reap them all; report."""
    states = [_Rank(pid, fd) for pid, fd in ranks]
    sel = selectors.DefaultSelector()
    for state in states:
        sel.register(state.fd, selectors.EVENT_READ, state)
    deadline = time.monotonic() + timeout_s
    timed_out = False
    while any(s.open for s in states):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        for key, _ in sel.select(timeout=min(remaining, 0.5)):
            state = key.data
            chunk = os.read(state.fd, 65536)
            if chunk:
                state.feed(chunk)
            else:
                state.open = False
                sel.unregister(state.fd)
        failed = any(
            (not s.open and (s.final is None or "result" not in s.final)) or (s.final and "result" not in s.final)
            for s in states
        )
        if failed:
            deadline = min(deadline, time.monotonic() + GRACE_S)
    for state in states:
        try:
            os.kill(state.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(state.pid, 0)
        state.status = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
        os.close(state.fd)
    sel.close()
    return [s.report(waited=s.open and (timed_out or s.final is None)) for s in states]
