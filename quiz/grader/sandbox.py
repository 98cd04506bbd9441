"""Run a function in a forked child under limits: own process group, timeout, CPU and memory caps, capped output."""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import time
from dataclasses import dataclass
from typing import Callable

OUTPUT_CAP = 16 * 1024
RESULT_CAP = 64 * 1024 * 1024
MEMORY_HEADROOM = 2 * 1024**3


@dataclass
class ChildOutcome:
    data: dict | None  # what the child reported, None if it reported nothing
    output: str  # captured stdout+stderr, cut to OUTPUT_CAP
    timed_out: bool
    exit_code: int | None
    signal: int | None
    duration_ms: int


def _vm_size() -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _limit_child(cpu_seconds: float) -> None:
    cpu = max(1, int(cpu_seconds) + 1)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    vm = _vm_size()
    if vm:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (vm + MEMORY_HEADROOM, vm + MEMORY_HEADROOM))
        except (ValueError, OSError):
            pass
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _close_other_fds(keep: set[int]) -> None:
    """The child must not reach the worker's protocol pipes (a forged reply) or anything else inherited."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def run_limited(target: Callable[[], dict], timeout_s: float) -> ChildOutcome:
    """Fork; the child runs `target` and writes its dict as JSON; the parent enforces the limits."""
    result_r, result_w = os.pipe()
    out_r, out_w = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # child
        code = 0
        try:
            os.setpgid(0, 0)
            os.close(result_r)
            os.close(out_r)
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
                signal.signal(sig, signal.SIG_DFL)
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            _close_other_fds(keep={0, 1, 2, result_w})
            _limit_child(timeout_s)
            data = target()
            payload = json.dumps(data, allow_nan=True).encode()
            with os.fdopen(result_w, "wb") as fh:
                fh.write(payload)
        except BaseException:  # noqa: BLE001 - the child must never return into the worker's loop
            code = 3
        finally:
            os._exit(code)
    # parent (the worker)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the child already did it, or already exited
    os.close(result_w)
    os.close(out_w)
    return _supervise(pid, result_r, out_r, start, timeout_s)


def _supervise(pid: int, result_r: int, out_r: int, start: float, timeout_s: float) -> ChildOutcome:
    sel = selectors.DefaultSelector()
    sel.register(result_r, selectors.EVENT_READ, "result")
    sel.register(out_r, selectors.EVENT_READ, "output")
    pidfd = _pidfd(pid)
    if pidfd is not None:
        sel.register(pidfd, selectors.EVENT_READ, "exit")
    result, output, cut = bytearray(), bytearray(), 0
    deadline = start + timeout_s
    timed_out = exited = False
    while True:
        if not exited and _exited(pid):
            exited = True  # not reaped yet, so its process group id stays valid for the kill below
            if pidfd is not None:
                sel.unregister(pidfd)
        pipes_open = any(k.data != "exit" for k in sel.get_map().values())
        if exited and not pipes_open:
            break
        remaining = deadline - time.perf_counter()
        if remaining <= 0 and not exited:
            timed_out = True
            break
        wait = 0.02 if exited else min(remaining, 0.5 if pidfd is not None else 0.005)
        events = sel.select(timeout=max(wait, 0.0))
        for key, _ in events:
            if key.data == "exit":
                continue
            chunk = os.read(key.fd, 65536)
            if not chunk:
                sel.unregister(key.fd)
            elif key.data == "result":
                if len(result) < RESULT_CAP:
                    result += chunk
            else:
                room = max(OUTPUT_CAP - len(output), 0)
                output += chunk[:room]
                cut += len(chunk) - min(room, len(chunk))
        if exited and not events:
            break  # the child is gone; a grandchild may still hold the pipes open
    _kill_group(pid)
    _, status = os.waitpid(pid, 0)
    sel.close()
    for fd in (result_r, out_r) + ((pidfd,) if pidfd is not None else ()):
        os.close(fd)
    text = output.decode("utf-8", "replace")
    if cut:
        text += f"\n[output cut: {cut} more bytes not shown]"
    data = None
    if result and not timed_out:
        try:
            data = json.loads(result.decode("utf-8", "replace"))
        except ValueError:
            data = None
    return ChildOutcome(
        data=data if isinstance(data, dict) else None,
        output=text,
        timed_out=timed_out,
        exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        duration_ms=int((time.perf_counter() - start) * 1000),
    )


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when the child exits (Linux 5.3+), else None (then we poll)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _exited(pid: int) -> bool:
    info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    return info is not None


def _kill_group(pgid: int) -> None:
    """Kill the child's whole process group: the child and anything it started."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
