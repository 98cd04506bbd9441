"""The grader worker: imports torch once, stays warm, and for each grade forks a fenced child that runs
the learner's code and a fenced judge that decides. It never runs learner code itself.

Protocol: one JSON request per line on stdin, `{"id": ..., "op": ...}`; one JSON reply per line on the
original stdout, echoing the id. Started isolated (`python -I`, working directory `/`) so nothing a
learner could plant is importable."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from quiz.grader.results import ERROR, Result
from quiz.grader.sandbox import harden_worker, probe, reap_orphans
from quiz.grader.triton_support import uses_kernels


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
    import quiz.grader.grade  # noqa: F401
    import quiz.grader.kinds.autograd  # noqa: F401
    import quiz.grader.kinds.function  # noqa: F401


def _cuda_in_a_fork() -> bool:
    """Whether a CUDA device is usable, asked in a throwaway child: the worker itself never initialises
    CUDA, which a forked check could not then use."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            import torch

            code = 0 if torch.cuda.is_available() and torch.cuda.device_count() > 0 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


class Worker:
    def __init__(self):
        self.fences = harden_worker() + probe()
        self.scratch_root = tempfile.mkdtemp(prefix="quiz-grader-")
        self._cuda: bool | None = None

    def device(self, wanted: object) -> str:
        """ "cpu" or "cuda" for kernel checks: what was asked, or the GPU when there is one."""
        if wanted in ("cpu", "cuda"):
            return str(wanted)
        return "cuda" if self.has_cuda() else "cpu"

    def has_cuda(self) -> bool:
        if self._cuda is None:
            self._cuda = _cuda_in_a_fork()
        return self._cuda

    def handle(self, request: dict) -> dict:
        from quiz.grader.grade import grade

        op = request.get("op")
        if op == "ping":
            return {"ok": True, "pid": os.getpid(), "protections": self.fences}
        if op == "grade":
            exercise, folder, file = request.get("exercise"), request.get("dir"), request.get("file")
            if not isinstance(exercise, dict) or not isinstance(folder, str) or not isinstance(file, str):
                return {"error": "a grade request needs exercise, dir and file"}
            scratch = tempfile.mkdtemp(dir=self.scratch_root)
            from quiz.grader.say import set_lang

            set_lang(str(request.get("lang", "en")))
            try:
                device = self.device(request.get("device", "auto")) if uses_kernels(exercise) else "cpu"
                if device == "cuda" and not self.has_cuda():
                    return Result(
                        str(exercise.get("id", "")),
                        ERROR,
                        "--device cuda: no CUDA device is usable here; use --device cpu (Triton's interpreter)",
                    ).to_dict()
                return grade(exercise, Path(folder), Path(file), scratch, self.fences, device=device).to_dict()
            finally:
                reap_orphans()
                shutil.rmtree(scratch, ignore_errors=True)
        return {"error": f"unknown op {op!r}"}

    def close(self) -> None:
        from quiz.grader import sandbox

        if sandbox.CGROUP is not None:
            sandbox.CGROUP.remove()
        reap_orphans()
        shutil.rmtree(self.scratch_root, ignore_errors=True)


def main() -> None:
    from quiz.grader import sandbox

    for arg in sys.argv[2:]:
        if arg.startswith("--fences-off="):
            sandbox.DISABLED.update(filter(None, arg.split("=", 1)[1].split(",")))
    os.chdir("/")
    out = _protocol_out()
    start = time.perf_counter()
    worker = Worker()
    warm_up()
    out.write(
        json.dumps(
            {
                "ready": True,
                "pid": os.getpid(),
                "protections": worker.fences,
                "start_ms": int((time.perf_counter() - start) * 1000),
            }
        )
        + "\n"
    )
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            request_id = None
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("a request is a JSON object")
                request_id = request.get("id")
                if request.get("op") == "quit":
                    break
                reply = worker.handle(request)
            except Exception as exc:  # noqa: BLE001 - report, keep serving
                reply = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(limit=5)}
            reply["id"] = request_id
            out.write(json.dumps(reply, allow_nan=True) + "\n")
    finally:
        worker.close()


if __name__ == "__main__":
    main()
