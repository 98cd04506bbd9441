"""`quiz progress export|import` with QUIZ_HOME: two homes exchange files and agree; a bad file changes nothing."""

from __future__ import annotations

import json

from test_cli_review import quiz


def test_two_homes_exchange_progress_files(tmp_path):
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    assert quiz("review", "--plain", "--module", "alpha", stdin="\n3\nq\n", home=laptop).returncode == 0
    assert quiz("review", "--plain", "--module", "beta", stdin="\n4\nq\n", home=desktop).returncode == 0
    for home in (laptop, desktop):
        out = quiz("progress", "export", str(tmp_path / f"{home.name}.jsonl"), home=home)
        assert out.returncode == 0 and "exported 1 review(s)" in out.stdout, out.stderr
    out = quiz("progress", "import", str(tmp_path / "desktop.jsonl"), home=laptop)
    assert out.returncode == 0 and "imported 1 new review(s)" in out.stdout, out.stderr
    assert "imported 1 new" in quiz("progress", "import", str(tmp_path / "laptop.jsonl"), home=desktop).stdout
    assert (
        "imported 0 new review(s), 1 already here"
        in quiz("progress", "import", str(tmp_path / "laptop.jsonl"), home=desktop).stdout
    )
    stats = [json.loads(quiz("stats", "--json", home=h).stdout) for h in (laptop, desktop)]
    assert stats[0]["reviews_total"] == stats[1]["reviews_total"] == 2
    assert stats[0]["by_state"] == stats[1]["by_state"]


def test_a_file_that_is_not_an_export_is_refused(tmp_path, isolated_home):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    out = quiz("progress", "import", str(bad), home=isolated_home)
    assert out.returncode == 1 and "notes.txt:1" in out.stderr and "nothing was imported" in out.stderr
