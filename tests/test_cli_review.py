"""`quiz review --plain` driven from a pipe, then `quiz stats --json` counting what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from srs_helpers import PACK

BUILTIN_OFF = {"QUIZ_CONTENT_PATH": str(PACK)}


def quiz(*args, stdin: str = "", home) -> subprocess.CompletedProcess:
    env = dict(os.environ, QUIZ_HOME=str(home), **BUILTIN_OFF)
    return subprocess.run(
        [sys.executable, "-m", "quiz", "--lang", "en", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_piped_review_rates_and_stats_count(isolated_home):
    # card 1: good; card 2 (q2: q1/c, its sibling, waits): again; card 3: undo (takes back card 2's rating); card 2 again: easy; quit
    result = quiz("review", "--plain", "--module", "alpha", stdin="\n3\n\n1\n\nu\n\n4\nq\n", home=isolated_home)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Q: Question 1" in out and "- Point 1" in out
    assert "1 again (1m)" in out and "3 good (10m)" in out
    assert "undone: rating again of q/q2" in out
    assert "reviewed 2 card(s) (again 0, hard 0, good 1, easy 1)" in out
    stats = json.loads(quiz("stats", "--json", home=isolated_home).stdout)
    assert stats["reviews_total"] == 2
    assert stats["reviewed_today"] == 2
    assert stats["by_state"]["learning"] + stats["by_state"]["review"] == 2
    assert stats["by_module"]["alpha"]["seen"] == 2
    for key in ("due_today", "new_left_today", "reviews_by_day", "retention_30d", "by_state", "by_module"):
        assert key in stats
    assert sum(d["count"] for d in stats["reviews_by_day"]) == 2


def test_limit_stops_the_session(isolated_home):
    result = quiz("review", "--plain", "--limit", "2", stdin="\n3\n\n3\n\n3\n", home=isolated_home)
    assert "reviewed 2 card(s)" in result.stdout


def test_end_of_input_ends_cleanly(isolated_home):
    result = quiz("review", "--plain", stdin="\n", home=isolated_home)
    assert result.returncode == 0 and "reviewed 0 card(s)" in result.stdout


def test_corrupt_database_is_a_clear_error(isolated_home):
    db = isolated_home / "progress.sqlite3"
    db.write_text("not a database")
    result = quiz("stats", "--json", home=isolated_home)
    assert result.returncode == 1
    assert str(db) in result.stderr and "Traceback" not in result.stderr
    assert db.read_text() == "not a database"
