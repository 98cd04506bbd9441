"""Run a function in a forked, fenced child: its own session and PID namespace, no capabilities,
Landlock, rlimits, a wall-clock timeout; what it reports comes back as JSON lines, capped."""

from __future__ import annotations

import ctypes
import json
import os
import resource
import selectors
import signal
import time
from dataclasses import dataclass, field
from typing import Callable

from quiz.grader import landlock

OUTPUT_CAP = 16 * 1024
RESULT_CAP = 64 * 1024 * 1024
MEMORY_HEADROOM = 2 * 1024**3
FILE_SIZE_CAP = 64 * 1024**2
MAX_PROCESSES = 64
CGROUP_PIDS = "/sys/fs/cgroup/pids"

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER = 1, 4, 36
_PR_CAPBSET_DROP, _PR_SET_SECUREBITS, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 28, 47, 4
_SECUREBITS_LOCKED_NOROOT = 0b101111  # NOROOT, NO_SETUID_FIXUP and KEEP_CAPS, each locked
_SYS_CAPSET = {"x86_64": 126, "aarch64": 91}
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1

Emit = Callable[[dict], None]

# Fences switched off, for the tests that show each one matters ("landlock", "caps", "pid-namespace",
# "pdeathsig", "not-dumpable", "subreaper", "cgroup", "net-namespace"); empty in normal use.
DISABLED: set[str] = set()


@dataclass
class ChildOutcome:
    records: list[dict] = field(default_factory=list)  # every well-formed JSON object line the child wrote
    output: str = ""  # captured stdout+stderr, cut to OUTPUT_CAP
    timed_out: bool = False
    exit_code: int | None = None
    signal: int | None = None
    duration_ms: int = 0
    garbled: bool = False  # the result stream held something that is not a JSON object per line


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> bool:
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def harden_worker() -> list[str]:
    """For the worker itself: not dumpable (no ptrace or /proc/<pid>/mem from the same uid), the reaper
    of every orphan its checks leave behind, and (as root) a pids cgroup for its checks."""
    global CGROUP
    done = []
    if "cgroup" not in DISABLED and PidsCgroup.available():
        try:
            CGROUP = PidsCgroup()
        except OSError:
            CGROUP = None
    if "not-dumpable" not in DISABLED and _prctl(_PR_SET_DUMPABLE, 0):
        done.append("worker-not-dumpable")
    if "subreaper" not in DISABLED and _prctl(_PR_SET_CHILD_SUBREAPER, 1):
        done.append("subreaper")
    return done


def _can_unshare_pids() -> bool:
    pid = os.fork()
    if pid == 0:
        flags = _CLONE_NEWPID | (0 if os.geteuid() == 0 else _CLONE_NEWUSER)
        os._exit(0 if _libc().unshare(flags) == 0 else 1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


_NET_PROBED: list[bool] = []  # asked once per worker


def _can_unshare_net() -> bool:
    if not _NET_PROBED:
        _NET_PROBED.append(_probe_net())
    return _NET_PROBED[0]


def _probe_net() -> bool:
    pid = os.fork()
    if pid == 0:
        os._exit(0 if _enter_net_namespace() else 1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def net_fences(fences: list[str]) -> list[str]:
    """The fences of a check that needs TCP between its own processes (torch.distributed ranks): a network
    namespace of its own whose only interface is loopback takes the place of Landlock's "no TCP"."""
    out = [f for f in fences if f != "landlock-net"]
    if "net-namespace" not in DISABLED and _can_unshare_net():
        out.append("net-namespace-loopback-only")
    return out


def probe() -> list[str]:
    """The fences a check's child gets on this machine (see `_fence`)."""
    fences = ["rlimits", "own-session"] + ([] if "pdeathsig" in DISABLED else ["parent-death-signal"])
    if CGROUP is None and "pid-namespace" not in DISABLED and _can_unshare_pids():
        fences.append("pid-namespace")  # with a pids cgroup, the cgroup already reaches every descendant
    if "caps" not in DISABLED:
        fences.append("capabilities-dropped")
    if os.geteuid() == 0:
        if "cgroup" not in DISABLED and PidsCgroup.available():
            fences.append("pids-cgroup")
    else:
        fences.append("nproc-rlimit")
        if "pid-namespace" in fences:
            fences.append("user-namespace")
    abi = landlock.abi_version() if "landlock" not in DISABLED else 0
    if abi:
        fences += (
            ["landlock-fs", "landlock-ptrace"]
            + (["landlock-net"] if abi >= 4 else [])
            + (["landlock-signals"] if abi >= 6 else [])
        )
    return fences


def _vm_size() -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _set_limit(which: int, value: int) -> None:
    try:
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):
        pass


def _limit(cpu_seconds: float, address_space: bool = True) -> None:
    cpu = max(1, int(cpu_seconds) + 1)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    except (ValueError, OSError):
        pass
    vm = _vm_size() if address_space else 0  # a CUDA context maps far more address space than it uses
    if vm:
        _set_limit(resource.RLIMIT_AS, vm + MEMORY_HEADROOM)
    _set_limit(resource.RLIMIT_CORE, 0)
    _set_limit(resource.RLIMIT_FSIZE, FILE_SIZE_CAP)


def _close_other_fds(keep: set[int]) -> None:
    """The child must reach none of the worker's descriptors (its protocol pipes above all)."""
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


def _map_own_ids(uid: int, gid: int) -> None:
    """In a new user namespace: keep this process's own uid and gid (and give up setgroups)."""
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)
    except OSError:
        pass


def _enter_pid_namespace() -> bool:
    """unshare a PID namespace (inside a user namespace when not root); the next fork is its init."""
    uid, gid = os.geteuid(), os.getegid()
    flags = _CLONE_NEWPID | (0 if uid == 0 else _CLONE_NEWUSER)
    if _libc().unshare(flags) != 0:
        return False
    if uid != 0:
        _map_own_ids(uid, gid)
    return True


def _enter_net_namespace() -> bool:
    """A network namespace of this process's own, with only its loopback interface, switched on: TCP works
    between the processes inside and reaches nothing outside. Root unshares it directly; anyone else
    inside a user namespace (or the one a PID namespace already made)."""
    libc = _libc()
    if libc.unshare(_CLONE_NEWNET) != 0:
        uid, gid = os.geteuid(), os.getegid()
        if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
            return False
        _map_own_ids(uid, gid)
    return _loopback_up()


def _loopback_up() -> bool:
    import fcntl
    import socket
    import struct

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            request = struct.pack("16sh14x", b"lo", 0)
            flags = struct.unpack("16sh14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
            fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sh14x", b"lo", flags | _IFF_UP))
    except OSError:
        return False
    return True


def _become_pid_one() -> None:
    """Fork the namespace's init, which goes on to run the check; this process waits and mirrors its end.
    When the init dies the kernel kills everything else in the namespace, whatever reparenting or
    setsid the learner's code did."""
    init = os.fork()
    if init == 0:
        if "pdeathsig" not in DISABLED:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        return
    _close_other_fds(keep=set())
    while True:
        try:
            _, status = os.waitpid(init, 0)
            break
        except ChildProcessError:
            os._exit(3)
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 3)


def _drop_capabilities() -> None:
    """Keep the uid (so the Python installation stays readable) but no capability at all, now or after
    an exec: root without capabilities cannot trace, override file modes or raise limits."""
    if "caps" in DISABLED:
        return
    import platform

    libc = _libc()
    for cap in range(64):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    libc.prctl(_PR_SET_SECUREBITS, _SECUREBITS_LOCKED_NOROOT, 0, 0, 0)
    number = _SYS_CAPSET.get(platform.machine())
    if number is not None:
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
        data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty (two 32-bit words)
        libc.syscall(number, ctypes.byref(header), ctypes.byref(data))
    if os.geteuid() != 0:
        _set_limit(resource.RLIMIT_NPROC, _processes_of(os.getuid()) + MAX_PROCESSES)
    if "pdeathsig" not in DISABLED:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _processes_of(uid: int) -> int:
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += 1
            except OSError:
                pass
    return count


class PidsCgroup:
    """A cgroup (v1 pids controller) per worker that caps how many processes a check may have, root or not."""

    def __init__(self):
        self._remove_stale()
        self.path = f"{CGROUP_PIDS}/quiz-grader-{os.getpid()}"
        os.makedirs(self.path, exist_ok=True)
        with open(f"{self.path}/pids.max", "w") as fh:
            fh.write(str(MAX_PROCESSES))

    @staticmethod
    def _remove_stale() -> None:
        """Empty cgroups left by workers that were killed before they could remove theirs."""
        try:
            names = [n for n in os.listdir(CGROUP_PIDS) if n.startswith("quiz-grader-")]
        except OSError:
            return
        for name in names:
            owner = name.rsplit("-", 1)[-1]
            if owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
                try:
                    os.rmdir(f"{CGROUP_PIDS}/{name}")
                except OSError:
                    pass

    @staticmethod
    def available() -> bool:
        return os.geteuid() == 0 and os.access(CGROUP_PIDS, os.W_OK) and os.path.isfile(f"{CGROUP_PIDS}/cgroup.procs")

    def join(self) -> None:
        """Called in the check's child: it and everything it starts count against pids.max."""
        with open(f"{self.path}/cgroup.procs", "w") as fh:
            fh.write(str(os.getpid()))

    def kill_all(self) -> None:
        for _ in range(20):
            try:
                with open(f"{self.path}/cgroup.procs") as fh:
                    pids = [int(p) for p in fh.read().split()]
            except OSError:
                return
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.01)

    def remove(self) -> None:
        self.kill_all()
        try:
            os.rmdir(self.path)
        except OSError:
            pass


CGROUP: PidsCgroup | None = None  # the worker's, when it could make one


def prepare_scratch(path: str) -> None:
    """A folder the fenced child may write to (the only one)."""
    os.makedirs(path, mode=0o700, exist_ok=True)


def gpu_device_files() -> list[str]:
    """The device files a CUDA context opens read-write (and ioctls); nothing else becomes writable."""
    import glob

    return sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/dri/renderD*"))


def _fence(scratch: str, cpu_seconds: float, pids: bool, gpu: bool = False, net: bool = False) -> None:
    # A PID namespace costs a second fork of this large process; a pids cgroup does its job (every
    # descendant found and killed, whatever it reparented to) for free, so it is used where there is one.
    if pids and CGROUP is None and "pid-namespace" not in DISABLED and _enter_pid_namespace():
        _become_pid_one()
    if net and "net-namespace" not in DISABLED:
        _enter_net_namespace()  # where none can be made TCP stays open, and the result's protections say so
    _limit(cpu_seconds, address_space=not gpu)
    os.chdir(scratch)
    os.environ["TMPDIR"] = scratch
    if "landlock" not in DISABLED:
        landlock.restrict([scratch] + (gpu_device_files() if gpu else []), tcp=net)
    _drop_capabilities()


def run_limited(
    target: Callable[[Emit], None],
    timeout_s: float,
    scratch: str,
    pids: bool = True,
    gpu: bool = False,
    net: bool = False,
) -> ChildOutcome:
    """Fork; the child fences itself and runs `target(emit)`, each `emit(dict)` one JSON line back.
    `gpu`: the child may open the GPU's device files and has no address-space limit. `net`: the child
    may use TCP, inside a network namespace of its own (loopback only)."""
    result_r, result_w = os.pipe()
    out_r, out_w = os.pipe()
    start = time.perf_counter()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # child
        code = 0
        try:
            os.setsid()
            if "pdeathsig" not in DISABLED:
                _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:
                os._exit(3)
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            _close_other_fds(keep={0, 1, 2, result_w})
            if CGROUP is not None:
                CGROUP.join()
            _fence(scratch, timeout_s, pids, gpu, net)
            sink = os.fdopen(result_w, "wb", buffering=0)

            def emit(record: dict) -> None:
                sink.write(json.dumps(record, allow_nan=True, ensure_ascii=True).encode() + b"\n")

            target(emit)
        except BaseException:  # noqa: BLE001 - the child must never return into the worker's loop
            code = 3
            try:
                import traceback

                traceback.print_exc(limit=4)
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(code)
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
            exited = True
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
    _kill(pid)
    if CGROUP is not None:
        CGROUP.kill_all()
    _, status = os.waitpid(pid, 0)
    reap_orphans()
    sel.close()
    for fd in (result_r, out_r) + ((pidfd,) if pidfd is not None else ()):
        os.close(fd)
    text = output.decode("utf-8", "replace")
    if cut:
        text += f"\n[output cut: {cut} more bytes not shown]"
    records, garbled = _parse_records(bytes(result))
    return ChildOutcome(
        records=records,
        output=text,
        timed_out=timed_out,
        exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        duration_ms=int((time.perf_counter() - start) * 1000),
        garbled=garbled,
    )


def _parse_records(raw: bytes) -> tuple[list[dict], bool]:
    records, garbled = [], False
    for line in raw.split(b"\n"):
        if not line:
            continue
        try:
            record = json.loads(line.decode("utf-8"))
        except ValueError:
            garbled = True
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            garbled = True
    return records, garbled


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _exited(pid: int) -> bool:
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _kill(pid: int) -> None:
    """The child's session (its process group) and the child itself; its PID namespace dies with its init."""
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass


def reap_orphans(rounds: int = 50) -> int:
    """Kill and reap every process left as this process's child (as subreaper, orphans come here)."""
    me, killed = os.getpid(), 0
    for _ in range(rounds):
        kids = _children_of(me)
        if not kids:
            break
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        for kid in kids:
            try:
                os.waitpid(kid, 0)
            except ChildProcessError:
                pass
    return killed


def _children_of(ppid: int) -> list[int]:
    kids: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return kids
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == ppid:
            kids.append(int(name))
    return kids
