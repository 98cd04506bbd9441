"""Inside one rank of a distributed check: wrappers around torch.distributed's tensor operations that count
calls and bytes, and tell the rank's supervisor which operation the rank is blocked in (so a deadlock can
be reported as "rank 2 waits in recv(src=1)"). What they count is evidence from the learner's process, not
a fence: it catches the usual mistakes (a gather where a ring was asked for), not a determined forger."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import torch

# the tensor operations of torch.distributed a learner's code may call; a name missing in this torch is skipped
P2P = ("send", "recv", "isend", "irecv")
COLLECTIVES = (
    "all_reduce",
    "broadcast",
    "reduce",
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_single",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "reduce_scatter_single",
    "all_to_all",
    "all_to_all_single",
    "gather",
    "scatter",
    "barrier",
)
PEER_ARG = {"send": "dst", "isend": "dst", "recv": "src", "irecv": "src", "broadcast": "src", "reduce": "dst"}


def _nbytes(value: Any, depth: int = 0) -> int:
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if depth < 2 and isinstance(value, (list, tuple)):
        return sum(_nbytes(v, depth + 1) for v in value)
    return 0


class CommLog:
    """Counts per operation, and a line to the supervisor before and after every blocking wait."""

    def __init__(self, fd: int):
        self._fd = fd
        self.calls: dict[str, int] = {}
        self.bytes: dict[str, int] = {}
        self.serial = 0
        self.depth = 0  # inside one of the wrapped operations (send calls isend: count it once)

    def post(self, message: dict) -> None:
        data = json.dumps(message).encode() + b"\n"
        while data:
            data = data[os.write(self._fd, data) :]

    def begin(self, op: str, peer: Any) -> int:
        self.serial += 1
        self.post({"op": op, "peer": peer if type(peer) is int else None, "call": self.serial})
        return self.serial

    def end(self, serial: int) -> None:
        self.post({"done": serial})

    def count(self, op: str, nbytes: int) -> None:
        self.calls[op] = self.calls.get(op, 0) + 1
        self.bytes[op] = self.bytes.get(op, 0) + nbytes

    def totals(self) -> dict:
        return {"calls": dict(self.calls), "bytes": dict(self.bytes)}


class _Work:
    """The handle an async operation returns, with `wait()` reported to the supervisor."""

    def __init__(self, work: Any, log: CommLog, op: str, peer: Any):
        self._work, self._log, self._op, self._peer = work, log, op, peer

    def wait(self, *args, **kwargs):
        serial = self._log.begin(f"{self._op}.wait", self._peer)
        try:
            return self._work.wait(*args, **kwargs)
        finally:
            self._log.end(serial)

    def __getattr__(self, attr: str):
        return getattr(self._work, attr)


def _wrap(op: str, fn: Callable, log: CommLog) -> Callable:
    def wrapper(*args, **kwargs):
        if log.depth:
            return fn(*args, **kwargs)
        peer = kwargs.get(PEER_ARG.get(op, ""), args[1] if op in PEER_ARG and len(args) > 1 else None)
        log.count(op, _nbytes(list(args) + list(kwargs.values())))
        serial = log.begin(op, peer)
        log.depth += 1
        try:
            out = fn(*args, **kwargs)
        finally:
            log.depth -= 1
            log.end(serial)
        return _Work(out, log, op, peer) if out is not None and hasattr(out, "wait") else out

    wrapper.__name__ = wrapper.__qualname__ = op
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def install(log: CommLog) -> None:
    """Replace the operations in torch.distributed and in distributed_c10d, where internal code looks them up."""
    import torch.distributed as dist
    import torch.distributed.distributed_c10d as c10d

    for op in P2P + COLLECTIVES:
        fn = getattr(c10d, op, None) or getattr(dist, op, None)
        if fn is None:
            continue
        wrapped = _wrap(op, fn, log)
        for module in (dist, c10d):
            if hasattr(module, op):
                setattr(module, op, wrapped)
