"""A damaged, read-only, full or locked progress database: a clear message, never a traceback or a write."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from srs_helpers import PACK, T0
from quiz.srs.cardstate import CardState
from quiz.srs.errors import StoreError, explain
from quiz.srs.store import Store

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def populate(path: Path) -> None:
    """A sound database with a few ratings, an attempt and a session, closed cleanly."""
    with Store.open(path) as store:
        for i in range(3):
            before = CardState(f"q/q{i + 1}")
            after = before.with_(
                state=2, due=T0 + timedelta(days=3), last_review=T0, stability=3.0, difficulty=5.0, reps=1
            )
            store.record_review(before, after, 3, T0, 1000, 3.0)
        store.record_attempt("double-fixture", T0, "fail", 1, 2, 40)
        store.record_session(T0, T0, "quiz", 2, 1, {"items": 2})


def overwrite_page(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[2 * page : 3 * page] = b"\xa5" * page  # the third page: a table's b-tree
    path.write_bytes(bytes(data))


def sql(statement: str):
    def damage(path: Path) -> None:
        conn = sqlite3.connect(path)
        conn.executescript(statement)
        conn.close()

    return damage


DAMAGE = {
    "page overwritten": overwrite_page,
    "dropped table": sql("DROP TABLE exercise_attempts"),
    "dropped column": sql("ALTER TABLE cards DROP COLUMN leech"),
    "bad json in the log": sql("UPDATE review_log SET state_before = '{not json' WHERE id = 2"),
    "bad date in a card": sql("UPDATE cards SET due = '2026-02-30 noon' WHERE card_id = 'q/q2'"),
    "logged state not an object": sql("UPDATE review_log SET state_after = '[1, 2]' WHERE id = 3"),
    "text in a number column": sql("UPDATE cards SET stability = 'high' WHERE card_id = 'q/q1'"),
    "impossible day": sql("UPDATE exercise_attempts SET attempted_at = '2026-02-30T10:00:00.000000+00:00'"),
    "bad session summary": sql("UPDATE quiz_sessions SET summary = 'oops'"),
}


@pytest.fixture(params=list(DAMAGE))
def damaged_home(request, isolated_home):
    db = isolated_home / "progress.sqlite3"
    populate(db)
    DAMAGE[request.param](db)
    for side in ("-wal", "-shm"):
        Path(f"{db}{side}").unlink(missing_ok=True)
    return isolated_home, db, request.param


def quiz(*args, home: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, QUIZ_HOME=str(home), QUIZ_CONTENT_PATH=str(PACK), PYTHONPATH=os.getcwd())
    return subprocess.run(
        [sys.executable, "-m", "quiz", "--lang", "en", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_damage_is_found_on_open_and_the_file_is_untouched(damaged_home):
    _, db, _ = damaged_home
    before = db.read_bytes()
    with pytest.raises(StoreError) as err:
        Store.open(db)
    assert err.value.kind == "damaged"
    assert str(db) in str(err.value) and "untouched" in str(err.value) and "backups" in str(err.value)
    assert db.read_bytes() == before


def test_every_command_reports_damage_and_leaves_the_file_byte_identical(damaged_home):
    home, db, _ = damaged_home
    before = db.read_bytes()
    for args, stdin in [
        (("stats",), ""),
        (("stats", "--json"), ""),
        (("review", "--plain"), "\n3\nq\n"),
        (("exercise", "list"), ""),
        (("backup",), ""),
    ]:
        result = quiz(*args, home=home, stdin=stdin)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert result.returncode == 1, (args, result.stdout, result.stderr)
        assert str(db) in result.stderr and "damaged" in result.stderr
        assert db.read_bytes() == before, args


def test_the_app_reports_damage_and_writes_nothing(damaged_home):
    from quiz.tui.app import build_context

    _, db, _ = damaged_home
    before = db.read_bytes()
    ctx = build_context("en", [PACK])
    assert ctx.services is None and str(db) in ctx.store_error and "damaged" in ctx.store_error
    assert db.read_bytes() == before


@pytest.mark.slow
def test_check_of_a_passing_file_exits_0_and_records_nothing_in_a_damaged_file(isolated_home):
    db = isolated_home / "progress.sqlite3"
    populate(db)
    DAMAGE["page overwritten"](db)
    before = db.read_bytes()
    env = dict(
        os.environ,
        QUIZ_HOME=str(isolated_home),
        PYTHONPATH=os.getcwd(),
        QUIZ_CONTENT_PATH=str(Path(__file__).parent / "fixtures" / "exercises"),
    )
    solution = Path(__file__).parent / "fixtures" / "exercises" / "double" / "solution.py"
    result = subprocess.run(
        [sys.executable, "-m", "quiz", "check", "double-fixture", str(solution)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "attempt not recorded" in result.stderr and "damaged" in result.stderr
    assert "Traceback" not in result.stderr
    assert db.read_bytes() == before


def test_a_logged_state_that_cannot_be_read_makes_undo_a_message_and_changes_nothing(tmp_path):
    db = tmp_path / "p.sqlite3"
    populate(db)
    sql("UPDATE review_log SET state_before = json_set(state_before, '$.due', 'soon') WHERE id = 3")(db)
    with Store.open(db) as store:
        cards = store.cards()
        with pytest.raises(StoreError) as err:
            store.undo_review(3, T0)
        assert err.value.kind == "damaged" and "review_log row 3" in str(err.value)
        assert store.cards() == cards
        assert store.conn.execute("SELECT count(*) FROM review_log WHERE undone_at IS NOT NULL").fetchone()[0] == 0


# --- read-only, full, locked --------------------------------------------------------------------


def _chattr(flag: str, path: Path) -> bool:
    return (
        shutil.which("chattr") is not None
        and subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0
    )


@pytest.fixture
def immutable_db(isolated_home):
    """A database file that even root cannot write (chattr +i), in a writable folder."""
    db = isolated_home / "progress.sqlite3"
    populate(db)
    if not _chattr("+i", db):
        pytest.skip("chattr +i is not available here")
    yield isolated_home, db
    _chattr("-i", db)


def test_read_only_file_first_rating_is_a_clear_message(immutable_db):
    home, db = immutable_db
    before = db.read_bytes()
    result = quiz("review", "--plain", home=home, stdin="\n3\nq\n")
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "read-only" in result.stderr and str(db) in result.stderr
    assert "Move or rename" not in result.stderr  # the advice is to make it writable, not to start fresh
    assert db.read_bytes() == before
    stats = quiz("stats", "--json", home=home)  # reading still works
    assert stats.returncode == 0 and '"reviews_total": 3' in stats.stdout


@pytest.fixture
def mount_point(tmp_path):
    if not ROOT or shutil.which("mount") is None:
        pytest.skip("needs root to mount a small tmpfs")
    point = tmp_path / "mnt"
    point.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(point)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield point
    subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_read_only_folder_is_a_clear_message(mount_point):
    home = mount_point / "home"
    home.mkdir()
    populate(home / "progress.sqlite3")
    subprocess.run(["mount", "-o", "remount,ro", str(mount_point)], check=True)
    before = (home / "progress.sqlite3").read_bytes()
    result = quiz("review", "--plain", home=home, stdin="\n3\nq\n")
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert "read-only" in result.stderr and "Move or rename" not in result.stderr
    assert (home / "progress.sqlite3").read_bytes() == before


def test_full_disk_keeps_every_saved_rating(mount_point):
    import json

    home = mount_point / "home"
    home.mkdir()
    result = quiz("review", "--plain", "--limit", "1", home=home, stdin="\n3\n")
    assert result.returncode == 0, result.stderr
    (mount_point / "spare").write_bytes(b"\0" * 160 * 1024)
    with open(
        mount_point / "filler", "wb", buffering=0
    ) as fh:  # fill the disk (unbuffered: close has nothing left to write), then give back a little room
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass
    (mount_point / "spare").unlink()
    result = quiz("review", "--plain", home=home, stdin="\n3\n" * 60)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "is full" in result.stderr and "Free some space" in result.stderr and str(home) in result.stderr
    assert "Move or rename" not in result.stderr
    shown = result.stdout.count(") A:")  # each answer shown was rated; only the last rating failed
    (mount_point / "filler").unlink()
    stats = quiz("stats", "--json", home=home)
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["reviews_total"] == 1 + max(0, shown - 1)


def hold_lock(path: Path):
    other = sqlite3.connect(path, timeout=0.1, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_lock_held_past_the_busy_timeout_is_a_clear_message(tmp_path):
    db = tmp_path / "p.sqlite3"
    populate(db)
    notes: list[str] = []
    with Store.open(db, busy_timeout_ms=800) as store:
        store.on_wait = notes.append
        other = hold_lock(db)
        try:
            with pytest.raises(StoreError) as err:
                store.record_attempt("x", T0, "pass", 1, 1, 1)
        finally:
            other.rollback()
            other.close()
        assert err.value.kind == "locked" and "locked by another program" in str(err.value)
        assert "0.8 s" in str(err.value)
        assert len(notes) == 1 and "waiting" in notes[0]
        store.record_attempt("x", T0, "pass", 1, 1, 1)  # free again: the write goes through
        assert store.exercise_status() == {"double-fixture": "failing", "x": "passed"}


def test_a_lock_released_while_waiting_lets_the_write_through(tmp_path):
    db = tmp_path / "p.sqlite3"
    populate(db)
    notes: list[str] = []
    waited = threading.Event()

    with Store.open(db, busy_timeout_ms=10_000) as store:
        other = hold_lock(db)

        def release(note: str) -> None:
            notes.append(note)
            waited.set()

        store.on_wait = release
        threading.Thread(target=lambda: (waited.wait(10), other.rollback(), other.close())).start()
        store.record_attempt("x", T0, "pass", 1, 1, 1)
        assert len(notes) == 1
        assert store.exercise_status()["x"] == "passed"


@pytest.mark.slow
def test_cli_shows_a_note_while_waiting_then_a_message(isolated_home):
    db = isolated_home / "progress.sqlite3"
    populate(db)
    other = hold_lock(db)
    try:
        result = quiz("review", "--plain", home=isolated_home, stdin="\n3\nq\n")
    finally:
        other.rollback()
        other.close()
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert "waiting up to 5 s" in result.stderr
    assert "stayed locked for more than 5 s" in result.stderr


def test_check_record_never_fails_the_grade(isolated_home, capsys, monkeypatch):
    from quiz.cli.check_cmd import record
    from quiz.grader.results import Result

    db = isolated_home / "progress.sqlite3"
    populate(db)

    class QuickStore(Store):
        @classmethod
        def open(cls, path, busy_timeout_ms=5000):
            return super().open(path, 400)

    monkeypatch.setattr("quiz.services.Store", QuickStore)
    other = hold_lock(db)
    try:
        record(Result("double-fixture", "pass", "", 3, []))
    finally:
        other.rollback()
        other.close()
    err = capsys.readouterr().err
    assert "attempt not recorded" in err and "locked by another program" in err


@pytest.mark.parametrize(
    "code, kind, words",
    [
        (13, "full", "Free some space"),
        (8, "readonly", "writable"),
        (5, "locked", "another program"),
        (11, "damaged", "untouched"),
        (26, "damaged", "not a readable"),
    ],
)
def test_each_sqlite_error_has_its_own_advice(code, kind, words, tmp_path):
    exc = sqlite3.OperationalError("some sqlite message")
    exc.sqlite_errorcode = code
    error = explain(exc, tmp_path / "p.sqlite3")
    assert error.kind == kind and words in str(error) and str(tmp_path / "p.sqlite3") in str(error)


def test_sqlite_errors_become_messages_at_the_store_boundary(tmp_path, monkeypatch):
    """A full disk met inside a write: the store raises the full-disk message and nothing is half-written."""
    db = tmp_path / "p.sqlite3"
    populate(db)
    with Store.open(db) as store:
        real = store.conn

        class Full:
            in_transaction = False

            def execute(self, statement, *args):
                if statement.startswith("INSERT"):
                    exc = sqlite3.OperationalError("database or disk is full")
                    exc.sqlite_errorcode = 13
                    raise exc
                result = real.execute(statement, *args)
                Full.in_transaction = real.in_transaction
                return result

        monkeypatch.setattr(store, "conn", Full())
        with pytest.raises(StoreError, match="is full"):
            store.record_attempt("x", T0, "pass", 1, 1, 1)
        assert not real.in_transaction
        monkeypatch.undo()
        assert "x" not in store.exercise_status()


# --- QUIZ_HOME, backups ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["stats"],
        ["review", "--plain"],
        ["exercise", "start", "double-fixture"],
        ["backup"],
        ["list"],
        ["check", "double-fixture"],
        [],
    ],
)
def test_quiz_home_that_is_a_file_is_said_plainly(tmp_path, args):
    home = tmp_path / "not-a-folder"
    home.write_text("hello")
    result = quiz(*args, home=home, stdin="q\n")
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "is a file, not a folder" in result.stderr and str(home) in result.stderr
    assert home.read_text() == "hello"


def test_store_under_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        Store.open(tmp_path / "f" / "sub" / "progress.sqlite3")


def test_daily_backup_is_redone_when_empty_or_unreadable(tmp_path):
    from quiz.srs.backup import daily_backup, is_sound_copy

    db = tmp_path / "p.sqlite3"
    populate(db)
    folder = tmp_path / "backups"
    with Store.open(db) as store:
        first = daily_backup(store, folder, T0)
        assert first is not None and is_sound_copy(first)
        assert daily_backup(store, folder, T0) is None  # once a day
        first.write_bytes(b"")  # what a kill during the copy used to leave
        assert daily_backup(store, folder, T0) == first and is_sound_copy(first)
        first.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 8000)
        assert daily_backup(store, folder, T0) == first and is_sound_copy(first)
    with Store.open(first) as copy:
        assert copy.review_count() == 3
    assert sorted(p.name for p in folder.iterdir()) == [first.name]


def test_a_copy_that_fails_midway_leaves_no_file_under_the_final_name(tmp_path, monkeypatch):
    from quiz.srs import backup

    db = tmp_path / "p.sqlite3"
    populate(db)
    dest = tmp_path / "backups" / "progress-2026-03-02.sqlite3"
    seen: list[Path] = []

    class Killed(Exception):
        pass

    real_connect = sqlite3.connect

    def connect(target, *args, **kwargs):
        seen.append(Path(target))
        conn = real_connect(target, *args, **kwargs)
        conn.execute("CREATE TABLE partial (x)")  # something is on disk under the temporary name
        raise Killed

    with Store.open(db) as store:
        monkeypatch.setattr(backup.sqlite3, "connect", connect)
        with pytest.raises(Killed):
            store.backup(dest)
    assert seen and seen[0] != dest and seen[0].parent == dest.parent
    assert not dest.exists()


def test_backup_to_a_place_that_cannot_be_written_is_a_message(isolated_home, tmp_path):
    populate(isolated_home / "progress.sqlite3")
    (tmp_path / "blocker").write_text("a file where a folder should be")
    result = quiz("backup", str(tmp_path / "blocker" / "copy.sqlite3"), home=isolated_home)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1 and "blocker" in result.stderr
