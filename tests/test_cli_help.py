"""`quiz --help` says where progress and settings live and how to leave the app, without creating anything."""

from __future__ import annotations

from click.testing import CliRunner

from quiz import paths
from quiz.cli.main import cli


def test_help_names_the_data_paths_and_how_to_quit(isolated_home):
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert str(paths.database_file()) in result.output and str(paths.config_file()) in result.output
    assert "ctrl+q quits" in result.output
    assert list(isolated_home.iterdir()) == []  # printing the paths writes nothing
