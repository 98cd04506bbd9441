"""Every malformed file gives a path:line:col problem; none crashes, hangs or stops the rest loading."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from content_helpers import load_pack, messages, write

from quiz import paths
from quiz.content import yamlsafe
from quiz.content.loader import load_bank

LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (error|warning): .+$")


def only_problem(bank, fragment: str):
    errors = [p for p in bank.problems if p.is_error]
    assert errors, f"expected an error containing {fragment!r}"
    assert any(fragment in p.message for p in errors), messages(bank)
    for text in messages(bank):
        assert LINE.match(text), text
    return next(p for p in errors if fragment in p.message)


def test_valid_fixture_loads_clean(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text)
    bank = load_pack(tmp_path, strict=True)
    assert messages(bank) == []
    assert "sample-question" in bank.questions


def test_syntax_error_points_at_line(tmp_path, valid_text):
    broken = valid_text.replace("tags: [autograd]", "tags: [autograd")
    write(tmp_path, "q.yaml", broken)
    problem = only_problem(load_pack(tmp_path), "YAML syntax")
    assert problem.line in (5, 6)


def test_tab_indentation_is_explained(tmp_path):
    write(tmp_path, "q.yaml", "format_version: 1\ntags:\n\t- a\n")
    problem = only_problem(load_pack(tmp_path), "tabs")
    assert (problem.line, problem.col) == (3, 1)


def test_wrong_type_names_the_key(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace("difficulty: 1", "difficulty: hard"))
    problem = only_problem(load_pack(tmp_path), "difficulty")
    assert problem.line == 4 and problem.col == 13


def test_unknown_key_suggests_the_right_one(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace("keywords:", "keywrods:"))
    problem = only_problem(load_pack(tmp_path), "unknown key 'keywrods'")
    assert "did you mean 'keywords'" in problem.message
    assert (problem.line, problem.col) == (6, 1)


def test_nested_unknown_key_points_at_the_key(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace('    back: {zh: "requires_grad', '    bak: {zh: "requires_grad'))
    bank = load_pack(tmp_path)
    problem = only_problem(bank, "unknown key 'bak'")
    assert problem.line == 18 and problem.col == 5


def test_missing_translation_is_warning_then_strict_error(tmp_path, valid_text):
    write(
        tmp_path,
        "q.yaml",
        valid_text.replace(
            'question: {zh: "什么是叶子张量？", en: "What is a leaf tensor?"}',
            'question: {en: "What is a leaf tensor?"}',
        ),
    )
    lenient = load_pack(tmp_path)
    assert [p.severity for p in lenient.problems] == ["warning"]
    assert "sample-question" in lenient.questions
    strict = load_pack(tmp_path, strict=True)
    problem = only_problem(strict, "missing 'zh'")
    assert problem.line == 7


def test_duplicate_ids_name_both_places(tmp_path, valid_text):
    first = write(tmp_path, "a.yaml", valid_text)
    write(tmp_path, "b.yaml", valid_text)
    problem = only_problem(load_pack(tmp_path), "duplicate question id 'sample-question'")
    assert problem.path.endswith("b.yaml") and str(first) in problem.message and problem.line == 2


def test_collision_with_builtin_id_is_an_error(tmp_path, valid_text):
    from quiz import paths
    from quiz.content.loader import load_bank

    builtin = paths.builtin_content_dir()
    ids = load_bank([builtin], builtin=builtin).questions
    if not ids:
        pytest.skip("no built-in questions")
    taken = next(iter(ids))
    write(tmp_path, "q.yaml", valid_text.replace("id: sample-question", f"id: {taken}"))
    problem = only_problem(load_pack(tmp_path), f"duplicate question id '{taken}'")
    assert str(builtin) in problem.message


def test_duplicate_key_in_mapping(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text + "difficulty: 2\n")
    problem = only_problem(load_pack(tmp_path), "duplicate key 'difficulty'")
    assert problem.line == valid_text.count("\n") + 1


def test_non_utf8_file(tmp_path, valid_text):
    raw = valid_text.encode("utf-8").replace("叶子".encode("utf-8"), "叶子".encode("gbk"), 1)
    write(tmp_path, "q.yaml", raw)
    problem = only_problem(load_pack(tmp_path), "not valid UTF-8")
    assert problem.line == 7


def test_empty_file(tmp_path):
    write(tmp_path, "q.yaml", "")
    write(tmp_path, "blank.yaml", "\n  \n# only a comment\n")
    bank = load_pack(tmp_path)
    assert len([p for p in bank.problems if "empty" in p.message or "no YAML document" in p.message]) == 2


def test_huge_file_is_refused_before_parsing(tmp_path, valid_text, monkeypatch):
    big = valid_text + "# " + "x" * 78 + "\n"
    write(tmp_path, "q.yaml", big * (20_000_000 // len(big)))

    parse = yamlsafe.parse_yaml

    def parse_small_only(path, raw):
        assert path.parent != tmp_path, "a file over the size limit was parsed"
        return parse(path, raw)

    monkeypatch.setattr(yamlsafe, "parse_yaml", parse_small_only)
    problem = only_problem(load_pack(tmp_path), "MB")
    assert (problem.line, problem.col) == (1, 1)


def test_alias_bomb_is_refused(tmp_path, monkeypatch):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(ord("b"), ord("j")):
        prev = chr(i - 1)
        lines.append(f"{chr(i)}: &{chr(i)} [" + ",".join([f"*{prev}"] * 9) + "]")
    write(tmp_path, "q.yaml", "\n".join(lines) + "\n")
    built, current = [], []
    construct, parse = yamlsafe._Loader.construct_object, yamlsafe.parse_yaml

    def counting(self, node, deep=False):
        if current == [tmp_path / "q.yaml"]:
            built.append(node)
        return construct(self, node, deep)

    def tracking(path, raw):
        current[:] = [path]
        return parse(path, raw)

    monkeypatch.setattr(yamlsafe._Loader, "construct_object", counting)
    monkeypatch.setattr(yamlsafe, "parse_yaml", tracking)
    problem = only_problem(load_pack(tmp_path), "aliases")
    assert problem.line == 1  # the anchored node that an alias reuses
    assert len(built) < 100  # refused at the first alias, not after expanding 9**9 of them


def test_python_object_tag_is_refused(tmp_path):
    write(tmp_path, "q.yaml", "format_version: 1\nid: !!python/object/apply:os.system ['echo hacked']\n")
    problem = only_problem(load_pack(tmp_path), "unsupported YAML")
    assert problem.line == 2


def test_number_out_of_range_and_twice(tmp_path, valid_text):
    write(tmp_path, "a.yaml", valid_text.replace("difficulty: 1", "number: 306\ndifficulty: 1"))
    write(
        tmp_path,
        "b.yaml",
        valid_text.replace("id: sample-question", "id: q-two").replace("difficulty: 1", "number: 300\ndifficulty: 1"),
    )
    write(
        tmp_path,
        "c.yaml",
        valid_text.replace("id: sample-question", "id: q-three").replace("difficulty: 1", "number: 300\ndifficulty: 1"),
    )
    bank = load_pack(tmp_path)
    assert only_problem(bank, "less than or equal to 305").line == 4
    # The built-in bank holds every number from 1 to 305, so a pack's 300 is taken already.
    taken = [p for p in bank.problems if "number 300 is also used by 'cross-az-training'" in p.message]
    assert sorted(Path(p.path).name for p in taken) == ["b.yaml", "c.yaml"], messages(bank)
    # Without the built-in bank, the pack's own two 300s collide, and the second names the first.
    modules = tmp_path.parent / "modules-only"
    modules.mkdir()
    shutil.copy(paths.builtin_content_dir() / "modules.yaml", modules / "modules.yaml")
    alone = load_bank([modules, tmp_path])
    alone.problems = [p for p in alone.problems if p.path.startswith(str(tmp_path))]
    assert only_problem(alone, "number 300 is also used by 'q-two'").path.endswith("c.yaml")


def test_unknown_references(tmp_path, valid_text):
    text = (
        valid_text.replace("module: pytorch-internals", "module: no-such-module")
        + "related: [nowhere]\nexercises: [no-exercise]\n"
    )
    write(tmp_path, "q.yaml", text)
    bank = load_pack(tmp_path)
    assert only_problem(bank, "unknown module 'no-such-module'").line == 3
    assert only_problem(bank, "unknown question id 'nowhere'").col == 11
    assert only_problem(bank, "unknown exercise id 'no-exercise'")


def test_choice_without_correct_option(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace(", correct: true}", "}"))
    only_problem(load_pack(tmp_path), "no option is marked")


def test_exercise_folder_without_starter_or_solution(tmp_path):
    write(tmp_path, "ex/demo/exercise.yaml", EXERCISE)
    write(tmp_path, "ex/demo/solution.py", "x = 1\n")
    problem = only_problem(load_pack(tmp_path), "lacks starter.py")
    assert problem.path.endswith("exercise.yaml")


def test_bad_file_does_not_stop_the_rest(tmp_path, valid_text):
    write(tmp_path, "good.yaml", valid_text)
    write(tmp_path, "bad.yaml", "format_version: 1\nid: [\n")
    bank = load_pack(tmp_path)
    assert "sample-question" in bank.questions
    assert len(bank.errors) == 1


def test_newer_format_version(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace("format_version: 1", "format_version: 2"))
    only_problem(load_pack(tmp_path), "newer than this app reads")


@pytest.mark.parametrize("value", ["true", "'1'", "1.0", "0"])
def test_format_version_must_be_the_integer_1(tmp_path, valid_text, value):
    write(tmp_path, "q.yaml", valid_text.replace("format_version: 1", f"format_version: {value}"))
    problem = only_problem(load_pack(tmp_path), "")
    assert "format_version" in str(problem), messages(load_pack(tmp_path))


EXERCISE = """format_version: 1
id: demo
title: {zh: 演示, en: Demo}
module: pytorch-internals
entry: Demo
prompt: {zh: 写, en: Write}
checks:
  - kind: function
    function: test_demo
"""
