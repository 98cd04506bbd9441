"""The `quiz` entry point and `quiz backup`, run in-process with click's test runner."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from quiz import paths
from quiz.cli import main as cli_main
from quiz.cli.main import cli
from quiz.srs.cardstate import CardState
from quiz.srs.store import Store

T0 = datetime(2026, 3, 2, 12, tzinfo=timezone.utc)


@pytest.fixture
def opened(monkeypatch):
    """Record what the app would have been opened with, instead of opening it."""
    calls = []
    monkeypatch.setattr("quiz.tui.app.run_app", lambda **kw: calls.append(kw))
    return calls


def test_no_command_opens_the_app_with_the_global_options(opened, tmp_path):
    result = CliRunner().invoke(cli, ["--lang", "zh", "--content", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert opened == [{"lang": "zh", "content_dirs": [tmp_path], "screen": None}]


def test_review_without_plain_opens_the_app_on_the_review_screen(opened):
    result = CliRunner().invoke(cli, ["review"])
    assert result.exit_code == 0, result.output
    assert opened == [{"lang": None, "content_dirs": [], "screen": "review"}]


def test_main_turns_ctrl_c_into_exit_130(monkeypatch):
    def interrupted(**kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "cli", interrupted)
    with pytest.raises(SystemExit) as stop:
        cli_main.main()
    assert stop.value.code == 130


def test_version_and_help():
    runner = CliRunner()
    assert runner.invoke(cli, ["--version"]).output.startswith("quiz, version ")
    out = runner.invoke(cli, ["-h"]).output
    assert all(name in out for name in cli_main.COMMANDS)


def reviewed_store() -> None:
    with Store.open(paths.database_file()) as store:
        before = CardState("q/q1")
        store.record_review(before, before.with_(state=2, reps=1, due=T0), 3, T0, 1000, 1.0)


def copied_reviews(path) -> int:
    with sqlite3.connect(path) as copy:
        return copy.execute("SELECT count(*) FROM review_log").fetchone()[0]


def test_backup_to_the_default_folder(isolated_home):
    reviewed_store()
    result = CliRunner().invoke(cli, ["backup"])
    assert result.exit_code == 0, result.output
    made = list((isolated_home / "backups").glob("progress-*.sqlite3"))
    assert len(made) == 1 and f"backed up to {made[0]}" in result.output
    assert copied_reviews(made[0]) == 1


def test_backup_into_a_folder_or_to_a_file(isolated_home, tmp_path):
    reviewed_store()
    folder = tmp_path / "safe"
    folder.mkdir()
    assert CliRunner().invoke(cli, ["backup", str(folder)]).exit_code == 0
    (made,) = folder.glob("progress-*.sqlite3")
    assert copied_reviews(made) == 1
    target = tmp_path / "deep" / "copy.sqlite3"
    result = CliRunner().invoke(cli, ["backup", str(target)])
    assert result.exit_code == 0 and copied_reviews(target) == 1


def test_backup_refuses_to_overwrite_the_database(isolated_home):
    reviewed_store()
    result = CliRunner().invoke(cli, ["backup", str(paths.database_file())])
    assert result.exit_code == 2 and "cannot overwrite the database itself" in result.output
    assert copied_reviews(paths.database_file()) == 1


def test_backup_of_a_damaged_database_is_a_clear_error(isolated_home):
    paths.database_file().write_bytes(b"not a database at all" * 100)
    result = CliRunner().invoke(cli, ["backup"])
    assert result.exit_code == 1 and "is not a readable progress database" in result.output
