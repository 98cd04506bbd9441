"""Faults: kill -9 in the middle of rating, and two processes rating at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from proc_lines import lines

from quiz.srs.store import Store

SCRIPT = Path(__file__).parent / "srs_worker_script.py"


def start(db: Path, prefix: str, count: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), str(db), prefix, str(count)], stdout=subprocess.PIPE, text=True
    )


def test_kill_9_loses_no_committed_rating(tmp_path):
    db = tmp_path / "p.sqlite3"
    proc = start(db, "crash", 100_000)
    committed = []
    for line in lines(proc, timeout=120):
        committed.append(line.split())
        if len(committed) == 300:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with Store.open(db) as store:
        ids = {row[0] for row in store.conn.execute("SELECT id FROM review_log")}
        for log_id, card_id in committed:
            assert int(log_id) in ids
            assert store.card(card_id).reps == 1
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_processes_rating_at_once(tmp_path):
    db = tmp_path / "p.sqlite3"
    Store.open(db).close()
    procs = [start(db, "a", 300), start(db, "b", 300)]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    assert all(out.rstrip().endswith("done") for out in outputs)
    with Store.open(db) as store:
        assert store.conn.execute("SELECT count(*) FROM review_log").fetchone()[0] == 600
        assert store.conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 600
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
