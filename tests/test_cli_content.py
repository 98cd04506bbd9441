"""`quiz validate` and `quiz list`: exit codes, JSON shapes, user packs."""

from __future__ import annotations

import json

from click.testing import CliRunner

from content_helpers import write
from quiz.cli.main import cli


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_validate_clean_pack_exits_0(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text)
    result = run("validate", "--strict", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output


def test_validate_broken_file_exits_1_with_locations(tmp_path, valid_text):
    path = write(tmp_path, "q.yaml", valid_text.replace("difficulty: 1", "difficulty: [1]"))
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:4:13: error: difficulty" in result.output


def test_validate_usage_errors_exit_2(tmp_path):
    assert run("validate", str(tmp_path / "missing")).exit_code == 2
    assert run("validate", "--no-such-flag").exit_code == 2


def test_validate_json(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace('en: "What is a leaf tensor?"', "en: ''"))
    result = run("validate", "--json", "--strict", str(tmp_path))
    out = json.loads(result.stdout)
    assert result.exit_code == 1
    assert out["ok"] is False and out["errors"] == 1
    assert out["problems"][0]["line"] == 7 and "missing 'en'" in out["problems"][0]["message"]


def test_list_json_includes_user_pack(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text)
    result = run("--lang", "zh", "--content", str(tmp_path), "list", "--json")
    rows = json.loads(result.stdout)
    row = next(r for r in rows if r["id"] == "sample-question")
    assert row == {
        "number": None,
        "id": "sample-question",
        "module": "pytorch-internals",
        "title": "什么是叶子张量？",
        "langs": ["zh", "en"],
        "difficulty": 1,
        "cards": 1,
        "choices": 1,
        "exercises": 0,
    }


def test_content_path_env_adds_pack(tmp_path, valid_text, monkeypatch):
    write(tmp_path, "q.yaml", valid_text)
    monkeypatch.setenv("QUIZ_CONTENT_PATH", str(tmp_path))
    rows = json.loads(run("list", "--json", "--module", "pytorch-internals", "--lang", "en").stdout)
    assert "What is a leaf tensor?" in [r["title"] for r in rows]


def test_list_unknown_module_is_usage_error():
    assert run("list", "--module", "nope").exit_code == 2
