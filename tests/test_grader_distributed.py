"""The distributed check kind: real gloo ranks forked inside the check's fences, a hang that ends as a
timeout naming the waiting ranks with no process left behind, ranks that only reach each other, and a
judge that never passes a report it cannot read."""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader_helpers import grade_source, load_exercise
from quiz import paths
from quiz.grader import landlock, sandbox, wire
from quiz.grader.kinds import distributed
from quiz.grader.runner import GraderWorker

RING = paths.builtin_content_dir() / "08-communication-optimization" / "exercises" / "ring-allreduce-dist"
SOLUTION = (RING / "solution.py").read_text(encoding="utf-8")
ROOT_FENCES = landlock.abi_version() >= 6 and os.geteuid() == 0
NET_NAMESPACE = sandbox._can_unshare_net()

DEADLOCK = """
import torch, torch.distributed as dist

def ring_all_reduce(tensor):
    store = dist.distributed_c10d._get_default_store()
    while hasattr(store, "underlying_store"):
        store = store.underlying_store
    print("store port", store.port, flush=True)
    rank, world = dist.get_rank(), dist.get_world_size()
    dist.recv(torch.empty_like(tensor), (rank - 1) % world)  # everybody receives first: nobody sends
    dist.send(tensor, (rank + 1) % world)
"""


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def ring_exercise(**changes) -> dict:
    exercise = load_exercise(RING)
    exercise["checks"] = [dict(c, **changes) for c in exercise["checks"][:1]]
    return exercise


def children_of(pid: int) -> list[int]:
    kids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            if int(stat[stat.rfind(b")") + 2 :].split()[1]) == pid:
                kids.append(int(name))
    return kids


def test_a_right_ring_passes_on_real_ranks(worker, tmp_path):
    result = grade_source(worker, tmp_path, SOLUTION, load_exercise(RING), RING)
    assert result.status == "pass", [t.to_dict() for t in result.tests]
    assert len(result.tests) == 3
    if NET_NAMESPACE:
        assert "net-namespace-loopback-only" in result.protections
        assert "landlock-net" not in result.protections  # replaced, for a check that needs TCP, by the namespace


def test_a_deadlock_is_a_timeout_naming_the_waiting_ranks_and_leaves_nothing(worker, tmp_path):
    start = time.monotonic()
    result = grade_source(worker, tmp_path, DEADLOCK, ring_exercise(timeout_s=2), RING)
    took = time.monotonic() - start
    test = result.tests[0]
    assert test.status == "timeout", test.to_dict()
    assert "ranks 0, 1, 2, 3 were still waiting after 2 s" in test.message
    assert "rank 0 was in recv(src=3)" in test.message and "rank 2 was in recv(src=1)" in test.message
    assert "send without a matching receive" in test.message
    assert took < 15
    assert children_of(worker.proc.pid) == []  # every rank killed and reaped
    port = int(re.search(r"store port (\d+)", test.output).group(1))
    with socket.socket() as sock:  # nothing holds the port, here or (with the namespace) anywhere
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))


def test_a_deadlock_on_the_host_loopback_also_frees_its_port(tmp_path):
    with GraderWorker(fences_off=("net-namespace",)) as open_net:
        result = grade_source(open_net, tmp_path, DEADLOCK, ring_exercise(timeout_s=2), RING)
        assert result.tests[0].status == "timeout"
        assert children_of(open_net.proc.pid) == []
    port = int(re.search(r"store port (\d+)", result.tests[0].output).group(1))
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))


REACH_OUT = """
import socket, torch.distributed as dist

def ring_all_reduce(tensor):
    if dist.get_rank() == 0:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            print("reached the host", flush=True)
        except OSError as exc:
            print("no way out:", type(exc).__name__, flush=True)
    dist.all_reduce(tensor)
"""


@pytest.mark.skipif(not NET_NAMESPACE, reason="no network namespace can be made here")
def test_ranks_reach_each_other_and_nothing_outside(tmp_path):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    source = REACH_OUT.replace("PORT", str(port))
    try:
        with GraderWorker() as fenced:
            closed = grade_source(fenced, tmp_path, source, ring_exercise(), RING)
        with GraderWorker(fences_off=("net-namespace",)) as open_net:
            opened = grade_source(open_net, tmp_path, source, ring_exercise(), RING)
    finally:
        server.close()
    assert "no way out" in closed.tests[0].output and "reached the host" not in closed.tests[0].output
    assert "reached the host" in opened.tests[0].output  # the attack works without the fence


def test_a_rank_that_raises_is_named_with_its_line(worker, tmp_path):
    source = SOLUTION.replace(
        "    rank, world = dist.get_rank(), dist.get_world_size()\n",
        "    rank, world = dist.get_rank(), dist.get_world_size()\n    if rank == 2:\n        raise ValueError('rank two gives up')\n",
    )
    result = grade_source(worker, tmp_path, source, ring_exercise(), RING)
    test = result.tests[0]
    assert test.status in ("fail", "error") and test.message.startswith("rank 2: line 9:"), test.to_dict()
    assert "rank two gives up" in test.message


def test_a_rank_that_exits_is_named(worker, tmp_path):
    source = SOLUTION.replace(
        "    if world == 1:\n", "    if rank == 1:\n        import os\n        os._exit(0)\n    if world == 1:\n"
    )
    test = grade_source(worker, tmp_path, source, ring_exercise(), RING).tests[0]
    assert test.status == "fail" and test.message.startswith("rank 1 died"), test.to_dict()


def _judge(data, world=2):
    check = {"kind": "distributed", "world_size": world, "function": "run_1024", "judge": "judge_1024"}
    from quiz.grader.loading import load_module

    ctx = SimpleNamespace(name="c", helpers=load_module(RING / "checks.py", "ring_checks_under_test"))
    return distributed.judge(check, 7, data, ctx)


def _returned(value, comm=None):
    return {"status": "returned", "result": wire.encode(value), "comm": comm or {"calls": {}, "bytes": {}}}


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"ranks": []},
        {"ranks": [], "waited_s": 1, "extra": 1},
        {"ranks": [{"status": "returned"}], "waited_s": 1},  # one rank of two
        {"ranks": [{"status": "passed"}, {"status": "passed"}], "waited_s": 1},
        {"ranks": [{"status": "returned", "result": 1}, {"status": "returned", "result": 1}], "waited_s": 1},
    ],
)
def test_a_report_the_judge_cannot_read_never_passes(data):
    try:
        status = _judge(data).status
    except (wire.WireError, LookupError):
        status = "fail"
    assert status != "pass"


def test_the_judge_recomputes_every_ranks_input_from_the_seed():
    from quiz.grader.loading import load_module

    checks = load_module(RING / "checks.py", "ring_checks_for_values")
    inputs = [checks.rank_input(r, 2, 7, 1024) for r in range(2)]
    total = inputs[0] + inputs[1]
    good = [_returned({"tensor": total, "returned": None}) for _ in range(2)]
    assert _judge({"ranks": good, "waited_s": 1}).status == "pass"
    other_seed = checks.rank_input(0, 2, 8, 1024) + checks.rank_input(1, 2, 8, 1024)
    forged = [_returned({"tensor": other_seed, "returned": None}) for _ in range(2)]
    assert _judge({"ranks": forged, "waited_s": 1}).status == "fail"


def test_a_timeout_report_is_never_a_pass():
    waiting = {"status": "waiting", "pending": {"op": "recv", "peer": 1, "call": 1}, "last": None}
    result = _judge({"ranks": [waiting, waiting], "waited_s": 2})
    assert result.status == "timeout" and "rank 1 was in recv(src=1)" in result.message


def test_the_kind_needs_its_functions():
    from pydantic import ValidationError

    from quiz.content.models import Check

    with pytest.raises(ValidationError, match="needs 'judge'"):
        Check.model_validate({"kind": "distributed", "function": "run"})
    with pytest.raises(ValidationError):
        Check.model_validate({"kind": "distributed", "function": "run", "judge": "j", "world_size": 9})


def test_the_learner_files_own_folder_is_unchanged(tmp_path: Path, worker):
    grade_source(worker, tmp_path, SOLUTION, ring_exercise(), RING)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.py"]


def test_a_file_that_sets_up_its_own_process_group_is_told_to_leave_it(worker, tmp_path):
    source = (
        "import torch.distributed as dist\n"
        "dist.init_process_group('gloo', init_method='tcp://127.0.0.1:1', rank=0, world_size=1)\n" + SOLUTION
    )
    test = grade_source(worker, tmp_path, source, ring_exercise(), RING).tests[0]
    assert test.status in ("fail", "error") and test.status != "pass"
    assert "leave that to the grader" in test.message or "loading your file failed" in test.message, test.to_dict()


def test_messages_come_in_chinese_too(worker, tmp_path):
    path = tmp_path / "answer.py"
    path.write_text(DEADLOCK, encoding="utf-8")
    result = worker.grade(ring_exercise(timeout_s=1), RING, path, lang="zh")
    assert result.tests[0].status == "timeout"
    assert "仍在等待" in result.tests[0].message and "rank 0 停在 recv(src=3)" in result.tests[0].message


def test_a_kernel_exercise_still_passes_after_a_distributed_one_in_the_same_worker(worker, tmp_path):
    from quiz.grader.triton_support import available

    if not available():
        pytest.skip("Triton is not installed")
    assert grade_source(worker, tmp_path, SOLUTION, load_exercise(RING), RING).status == "pass"
    kernel = paths.builtin_content_dir() / "03-custom-operators" / "exercises" / "triton-flash-attention"
    result = worker.grade(load_exercise(kernel), kernel, kernel / "solution.py", device="cpu")
    assert result.status == "pass", [t.to_dict() for t in result.tests]  # Triton was not imported by the worker


def test_a_rank_aborted_by_a_mismatched_message_is_told_why(worker, tmp_path):
    source = SOLUTION.replace(
        "incoming = torch.empty_like(chunks[recv_i])", "incoming = torch.empty(chunks[recv_i].shape)"
    )
    test = grade_source(worker, tmp_path, source, ring_exercise(), RING).tests[0]  # a float32 buffer for float64 data
    assert test.status == "fail" and "SIGABRT" in test.message and "dtype or size" in test.message, test.to_dict()


def test_ranks_left_waiting_after_a_peer_failed_do_not_hide_its_failure():
    aborted = {"status": "died", "signal": 6, "exit_code": None, "pending": None, "last": None}
    waiting = {"status": "waiting", "pending": None, "last": None}
    result = _judge({"ranks": [waiting, aborted], "waited_s": 2})
    assert result.status == "fail" and result.message.startswith("rank 1 was aborted (SIGABRT)"), result
    alone = _judge({"ranks": [waiting, _returned({"tensor": None, "returned": None})], "waited_s": 2})
    assert alone.status == "timeout" and alone.message.startswith("rank 0 was still waiting after 2 s")
