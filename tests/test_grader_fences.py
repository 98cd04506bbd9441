"""Each fence around a check's child, tried as root: the attack fails with the fence, and works with the
fences that cover it switched off (so each test shows it can fail)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from grader_helpers import FIXTURE, GOOD_DOUBLE, WRONG_DOUBLE, grade_source, load_exercise, processes_named
from quiz.grader import landlock
from quiz.grader.runner import GraderWorker

pytestmark = pytest.mark.skipif(
    landlock.abi_version() < 6 or os.geteuid() != 0,
    reason="these tests show root-proof fences: they need root and Landlock ABI 6+",
)

ALL_OFF = ("landlock", "caps", "pid-namespace", "pdeathsig", "not-dumpable", "subreaper", "cgroup")


@pytest.fixture(scope="module")
def fenced():
    with GraderWorker() as w:
        yield w


@pytest.fixture(scope="module")
def open_worker():
    with GraderWorker(fences_off=ALL_OFF) as w:
        yield w


def guarded(code: str) -> str:
    """Module-level learner code that runs `code` and swallows its errors."""
    body = "\n".join("    " + line for line in code.strip().splitlines())
    return f"try:\n{body}\nexcept Exception:\n    pass\n\n"


def attack(code: str) -> str:
    """`code`, then a right answer."""
    return guarded(code) + GOOD_DOUBLE


def test_the_worker_reports_its_fences(fenced):
    for fence in (
        "landlock-fs",
        "landlock-signals",
        "capabilities-dropped",
        "pids-cgroup",
        "worker-not-dumpable",
        "subreaper",
    ):
        assert fence in fenced.protections
    with GraderWorker(fences_off=("cgroup",)) as w:
        assert "pid-namespace" in w.protections and "pids-cgroup" not in w.protections


def test_writes_outside_the_scratch_dir_are_refused(fenced, open_worker, tmp_path):
    victim = tmp_path / "victim.txt"
    stray = Path("/tmp") / f"quiz-stray-{os.getpid()}"
    code = f"open({str(victim)!r}, 'a').write('changed')\nopen({str(stray)!r}, 'w').write('x')\nopen('/dev/shm/quiz-stray-{os.getpid()}', 'w').write('x')"
    victim.write_text("original")
    assert grade_source(fenced, tmp_path, attack(code)).status == "pass"
    assert victim.read_text() == "original" and not stray.exists()
    assert not Path(f"/dev/shm/quiz-stray-{os.getpid()}").exists()
    grade_source(open_worker, tmp_path, attack(code))
    try:
        assert victim.read_text() == "originalchanged", "without the fences the same write goes through"
    finally:
        stray.unlink(missing_ok=True)
        Path(f"/dev/shm/quiz-stray-{os.getpid()}").unlink(missing_ok=True)


def test_the_installed_package_cannot_be_changed(fenced, tmp_path):
    import quiz.grader.verdict as verdict

    before = Path(verdict.__file__).read_bytes()
    code = f"open({verdict.__file__!r}, 'a').write('\\nraise SystemExit')"
    grade_source(fenced, tmp_path, attack(code))
    assert Path(verdict.__file__).read_bytes() == before
    assert grade_source(fenced, tmp_path, WRONG_DOUBLE).status == "fail"


SIGNALS = """
import ctypes, fcntl, os, signal
pid = {pid}
for attempt in ("kill", "pidfd", "sigio"):
    try:
        if attempt == "kill":
            os.kill(pid, signal.SIGUSR1)
        elif attempt == "pidfd":
            signal.pidfd_send_signal(os.pidfd_open(pid), signal.SIGUSR1)
        else:  # SIGIO-style: make the app the owner of a pipe, then make the pipe ready
            r, w = os.pipe()
            fcntl.fcntl(r, fcntl.F_SETOWN, pid)
            fcntl.fcntl(r, 10, signal.SIGUSR1)  # F_SETSIG
            fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)
            os.write(w, b"x")
    except OSError:
        pass
"""


def test_the_app_cannot_be_signalled(fenced, open_worker, tmp_path):
    hits = []
    old = signal.signal(signal.SIGUSR1, lambda *a: hits.append(1))
    try:
        code = SIGNALS.format(pid=os.getpid())
        assert grade_source(fenced, tmp_path, attack(code)).status == "pass"
        time.sleep(0.2)
        assert hits == []
        grade_source(open_worker, tmp_path, attack(code))
        time.sleep(0.2)
        assert hits, "without the fences the same signals arrive"
    finally:
        signal.signal(signal.SIGUSR1, old)


FORGE = """
import gc, json, os
workers = [os.getppid()]  # the worker, when no PID namespace hides it; else every worker there is
for name in os.listdir('/proc') if workers[0] <= 1 else []:
    if name.isdigit():
        try:
            if b'quiz.grader.worker' in open(f'/proc/{name}/cmdline', 'rb').read():
                workers.append(int(name))
        except OSError:
            pass
ids = [o.get('id') for o in gc.get_objects() if isinstance(o, dict) and o.get('op') == 'grade' and 'id' in o]
fake = {'version': 1, 'exercise': 'double-fixture', 'status': 'pass', 'message': 'forged', 'duration_ms': 1,
        'tests': [{'name': 'forged', 'status': 'pass', 'message': '', 'output': ''}], 'protections': [], 'id': ids[-1]}
for worker in workers:
    try:
        for fd in os.listdir(f'/proc/{worker}/fd'):
            if fd != '0' and os.readlink(f'/proc/{worker}/fd/{fd}').startswith('pipe:'):
                out = os.open(f'/proc/{worker}/fd/{fd}', os.O_WRONLY | os.O_NONBLOCK)
                os.write(out, (json.dumps(fake) + '\\n').encode())
    except OSError:
        pass
"""


def test_the_apps_channel_is_out_of_reach(fenced, open_worker, tmp_path):
    forged = WRONG_DOUBLE + "\n" + guarded(FORGE)
    result = grade_source(fenced, tmp_path, forged)
    # it reaches only its own pipes: at worst it garbles its own report, which is an error, never a pass
    assert result.status in ("fail", "error") and result.message != "forged"
    assert grade_source(fenced, tmp_path, GOOD_DOUBLE).status == "pass"
    assert grade_source(fenced, tmp_path, WRONG_DOUBLE).status == "fail"
    opened = grade_source(open_worker, tmp_path, forged)
    assert opened.message == "forged", "without the fences the forged reply is taken"
    # the real reply that follows is stale: it does not match the next request, so that request restarts the worker
    assert grade_source(open_worker, tmp_path, WRONG_DOUBLE).status == "error"
    assert grade_source(open_worker, tmp_path, WRONG_DOUBLE).status == "fail"


def test_the_workers_memory_is_out_of_reach(fenced, open_worker, tmp_path):
    def probe(worker, how):
        code = {
            "proc-mem": f"open('/proc/{worker.proc.pid}/mem', 'rb+')\n",
            "ptrace": f"import ctypes\nif ctypes.CDLL(None).ptrace(0x4206, {worker.proc.pid}, 0, 0) != 0:\n    raise PermissionError('ptrace')\n",
            "process_vm_readv": (
                "import ctypes\nbuf = ctypes.create_string_buffer(8)\n"
                "iov = (ctypes.c_void_p * 2)(ctypes.cast(buf, ctypes.c_void_p), 8)\n"
                f"rem = (ctypes.c_void_p * 2)(ctypes.c_void_p(int(open('/proc/{worker.proc.pid}/maps').read().split('-')[0], 16)), 8)\n"
                f"if ctypes.CDLL(None).process_vm_readv({worker.proc.pid}, iov, 1, rem, 1, 0) != 8:\n"
                "    raise PermissionError('process_vm_readv')\n"
            ),
        }[how]
        return grade_source(worker, tmp_path, code + "raise SystemExit('reached the worker')\n" + GOOD_DOUBLE)

    for how in ("proc-mem", "ptrace", "process_vm_readv"):
        blocked = probe(fenced, how)
        assert blocked.status == "fail" and "PermissionError" in blocked.tests[0].message, (how, blocked.to_dict())
        opened = probe(open_worker, how)
        assert opened.status == "error" and "sys.exit" in opened.tests[0].message, (
            f"without the fences root gets in: {how}"
        )


ESCAPE = """
import ctypes, os, time
def leave():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, b'{name}', 0, 0, 0)
            time.sleep(60)
        os._exit(0)
leave()
"""


def _cleanup(name: str) -> None:
    for pid in processes_named(name):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_no_process_outlives_its_check(fenced, open_worker, tmp_path):
    name = f"qz{os.getpid() % 100000}esc"
    try:
        assert grade_source(fenced, tmp_path, attack(ESCAPE.format(name=name))).status == "pass"
        time.sleep(2)
        assert processes_named(name) == []
        with GraderWorker(fences_off=("cgroup",)) as by_namespace:  # the other way to the same end
            assert grade_source(by_namespace, tmp_path, attack(ESCAPE.format(name=name))).status == "pass"
            time.sleep(2)
            assert processes_named(name) == []
        grade_source(open_worker, tmp_path, attack(ESCAPE.format(name=name)))
        time.sleep(0.5)
        assert processes_named(name), "without the fences the double fork escapes"
    finally:
        _cleanup(name)


def forks_started(worker, tmp_path, name: str) -> int:
    code = (
        "import ctypes, os, time\nforked = 0\nfor _ in range(100):\n    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n    if pid == 0:\n"
        f"        ctypes.CDLL(None).prctl(15, b'{name}', 0, 0, 0)\n        time.sleep(60)\n        os._exit(0)\n"
        "    forked += 1\nprint('FORKED', forked, flush=True)\n"
    )
    exercise = dict(load_exercise(FIXTURE), time_limit_s=30)
    result = grade_source(worker, tmp_path, code + GOOD_DOUBLE, exercise=exercise)
    output = result.tests[0].output
    assert "FORKED" in output, result.to_dict()
    return int(output.split("FORKED")[1].split()[0])


def test_a_fork_bomb_is_capped_and_cleaned_up(fenced, tmp_path):
    name = f"qz{os.getpid() % 100000}bmb"
    try:
        assert forks_started(fenced, tmp_path, name) < 64
        time.sleep(2)
        assert processes_named(name) == []
        with GraderWorker(fences_off=("cgroup",)) as uncapped:
            assert forks_started(uncapped, tmp_path, name) == 100, "without the pids cgroup root is not capped"
    finally:
        _cleanup(name)


def test_a_killed_worker_takes_its_check_along(tmp_path):
    name = f"qz{os.getpid() % 100000}orp"
    code = f"import ctypes, time\nctypes.CDLL(None).prctl(15, b'{name}', 0, 0, 0)\ntime.sleep(60)"
    worker = GraderWorker()
    worker.start()
    try:
        thread = threading.Thread(target=grade_source, args=(worker, tmp_path, attack(code)), daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not processes_named(name) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_named(name), "the check never started"
        os.kill(worker.proc.pid, signal.SIGKILL)
        # The parent-death signal is immediate, but a loaded machine may schedule the exit late.
        gone_by = time.monotonic() + 15
        while processes_named(name) and time.monotonic() < gone_by:
            time.sleep(0.1)
        assert processes_named(name) == []
    finally:
        worker.close()
        _cleanup(name)


def test_nothing_planted_is_importable_by_the_worker(fenced, tmp_path):
    plant = (
        "import os\nos.makedirs('quiz/grader', exist_ok=True)\n"
        "open('quiz/__init__.py', 'w').write('')\n"
        "open('quiz/grader/__init__.py', 'w').write('')\n"
        "open('quiz/grader/verdict.py', 'w').write('raise SystemExit')\n"
        "import sys\nprint('ISOLATED', sys.flags.isolated, '' in sys.path, os.getcwd() in sys.path)"
    )
    result = grade_source(fenced, tmp_path, attack(plant))
    assert result.status == "pass"
    assert "ISOLATED 1 False False" in result.tests[0].output
    assert grade_source(fenced, tmp_path, WRONG_DOUBLE).status == "fail"
    fresh = GraderWorker()
    try:
        assert grade_source(fresh, tmp_path, GOOD_DOUBLE).status == "pass"
    finally:
        fresh.close()
