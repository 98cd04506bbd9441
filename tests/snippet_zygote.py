"""Runs answer snippets as scripts without paying for `import torch` each time: this process imports torch
once, then forks one child per snippet, which runs the script as `__main__` in its own folder and
environment. Requests and replies are JSON lines on stdin/stdout."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

os.environ["OMP_NUM_THREADS"] = "1"  # read when torch starts its thread pools, so set before the import

import torch  # noqa: E402,F401


def _run_child(script: str, cwd: str, env: dict) -> None:
    import runpy
    import traceback

    os.setsid()
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    out = os.open(os.path.join(cwd, "snippet.out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(out, 1)
    os.dup2(out, 2)
    sys.argv = [script]
    sys.path[0] = os.path.dirname(script)
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported like a script's uncaught exception
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def main() -> None:
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    print(json.dumps({"ready": True}), file=reply)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _run_child(request["script"], request["cwd"], request["env"])
        deadline = time.monotonic() + request["timeout"]
        status = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.01)
        else:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            print(json.dumps({"rc": None, "timeout": True}), file=reply)
            continue
        rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
        print(json.dumps({"rc": rc, "timeout": False}), file=reply)


if __name__ == "__main__":
    main()
