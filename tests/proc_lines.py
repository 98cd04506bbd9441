"""Reading a child process's output line by line with a deadline, so a silent child fails the test."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Iterator


def lines(proc: subprocess.Popen, timeout: float) -> Iterator[str]:
    """Yield proc's stdout lines until it closes; raise TimeoutError when `timeout` seconds pass first."""
    pending: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            pending.put(line)
        pending.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = pending.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            raise TimeoutError(f"no output for {timeout} s from {proc.args!r}") from None
        if line is None:
            return
        yield line
