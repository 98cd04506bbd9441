"""Dunder names outside code: escaped for rendering, reported by `quiz validate --dunders`."""

from __future__ import annotations

from click.testing import CliRunner
from content_helpers import write

from quiz.cli.main import cli
from quiz.content.dunders import bare_dunders, escape_dunders

TEXT = (
    "Module.__call__ runs hooks; `__init__` is code.\n"
    "```python\ndef __init__(self):\n    pass\n```\n"
    "Use __launch_bounds__(256, 2), not a_b__c or __."
)


def test_only_dunders_outside_code_are_found_and_escaped():
    assert [name for _, name in bare_dunders(TEXT)] == ["__call__", "__launch_bounds__"]
    out = escape_dunders(TEXT)
    assert "Module.\\_\\_call\\_\\_ runs" in out and "\\_\\_launch\\_bounds\\_\\_(256, 2)" in out
    assert "`__init__`" in out and "def __init__(self):" in out  # code untouched
    assert escape_dunders("plain text") == "plain text"
    assert bare_dunders(out) == []  # escaping is idempotent


def test_validate_reports_dunders_only_when_asked(tmp_path, valid_text):
    text = valid_text.replace(
        "A leaf tensor is one the user created directly.",
        "A leaf tensor is one the user created directly, not through __call__.",
    )
    path = write(tmp_path, "q.yaml", text)
    plain = CliRunner().invoke(cli, ["validate", "--strict", str(tmp_path)])
    assert plain.exit_code == 0, plain.output
    asked = CliRunner().invoke(cli, ["validate", "--dunders", str(tmp_path)])
    assert asked.exit_code == 0
    assert f"{path}:12:65: warning: __call__ outside code at answer.en renders as bold" in asked.output
    strict = CliRunner().invoke(cli, ["validate", "--dunders", "--strict", str(tmp_path)])
    assert strict.exit_code == 1 and ": error: __call__" in strict.output


def test_the_builtin_bank_has_no_bare_dunder_names():
    from quiz import paths
    from quiz.content.dunders import dunder_problems
    from quiz.content.loader import load_bank

    builtin = paths.builtin_content_dir()
    problems = dunder_problems(load_bank([builtin], builtin=builtin))
    assert problems == [], [str(p) for p in problems[:5]]
