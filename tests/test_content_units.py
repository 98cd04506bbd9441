"""The content loader on small packs in a temporary folder: exact problems with path:line:col, the cache,
cross-file checks, YAML safety, and the models' helpers. Fast: nothing here reads the built-in bank."""

from __future__ import annotations

import json
import os
from pathlib import Path

from quiz.content import content_roots, load_default_bank
from quiz.content.bank import Bank
from quiz.content.cache import CACHE_VERSION, ParseCache
from quiz.content.construct import construct
from quiz.content.loader import load_bank
from quiz.content.models import Question, Text, TextList
from quiz.content.problems import Problem, problem_at
from quiz.content import yamlsafe
from quiz.content.yamlsafe import MAX_NODES, parse_yaml, read_yaml

MODULES = """format_version: 1
modules:
  - {id: alpha, number: 1, name: {zh: 甲, en: Alpha}, summary: {zh: 甲, en: Alpha}}
  - {id: beta, number: 2, name: {zh: 乙, en: Beta}, summary: {zh: 乙, en: Beta}}
"""

QUESTION = """format_version: 1
id: {id}
number: {number}
module: alpha
question: {{zh: "问 {id}", en: "Q {id}"}}
answer: {{zh: "答", en: "A"}}
"""

EXERCISE = """format_version: 1
id: {id}
title: {{zh: "题", en: "Title"}}
module: alpha
questions: [{question}]
entry: Double
prompt: {{zh: "做", en: "Do"}}
checks:
  - kind: gradcheck
    args:
      - {{tensor: {{shape: [2]}}}}
"""


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pack(root: Path, questions: dict[str, str] | None = None) -> Path:
    write(root, "modules.yaml", MODULES)
    for name, text in (questions or {}).items():
        write(root, name, text)
    return root


def question(qid: str = "q-one", number: int = 1, extra: str = "") -> str:
    return QUESTION.format(id=qid, number=number) + extra


def exercise(root: Path, eid: str = "ex-one", qid: str = "q-one", files=("starter.py", "solution.py")) -> Path:
    folder = root / "exercises" / eid
    write(folder, "exercise.yaml", EXERCISE.format(id=eid, question=qid))
    for name in files:
        write(folder, name, "class Double:\n    pass\n")
    return folder


def problems(bank: Bank) -> list[str]:
    return [f"{Path(p.path).name}:{p.line}:{p.col}: {p.severity}: {p.message}" for p in bank.problems]


# --- a sound pack ---------------------------------------------------------------------------------


def test_a_sound_pack_loads_everything(tmp_path):
    root = pack(tmp_path, {"a/q1.yaml": question("q-one", 1), "b/q2.yml": question("q-two", 2)})
    folder = exercise(root)
    bank = load_bank([root], builtin=root)
    assert bank.problems == []
    assert list(bank.modules) == ["alpha", "beta"]
    assert sorted(bank.questions) == ["q-one", "q-two"]
    assert bank.question_paths["q-two"] == root / "b" / "q2.yml"
    assert bank.exercises["ex-one"].entry == "Double" and bank.exercise_dirs["ex-one"] == folder
    assert bank.errors == [] and bank.warnings == []
    assert [q.id for q in bank.ordered_questions()] == ["q-one", "q-two"]
    assert [m.id for m in bank.ordered_modules()] == ["alpha", "beta"]
    assert bank.exercises_for("q-one") == [bank.exercises["ex-one"]]
    assert bank.exercises_for("nope") == []


def test_hidden_folders_and_exercise_yaml_are_not_questions(tmp_path):
    root = pack(tmp_path, {".git/x.yaml": "not: [valid", "q1.yaml": question()})
    exercise(root)
    write(root / "exercises" / "ex-one", "notes.yaml", "this: is inside an exercise")
    bank = load_bank([root])
    assert bank.problems == [] and list(bank.questions) == ["q-one"]


def test_a_missing_root_is_a_problem(tmp_path):
    bank = load_bank([tmp_path / "nowhere"])
    assert problems(bank) == ["nowhere:1:1: error: content folder does not exist"]


# --- question problems ----------------------------------------------------------------------------


def test_unknown_key_names_the_key_and_suggests(tmp_path):
    root = pack(tmp_path, {"q.yaml": question(extra="anser: {en: x}\n")})
    assert problems(load_bank([root])) == ["q.yaml:7:1: error: unknown key 'anser' at anser; did you mean 'answer'?"]


def test_unknown_nested_key_suggests_from_the_nested_model(tmp_path):
    extra = "cards:\n  - id: c\n    front: {en: f, zh: f}\n    bak: {en: b, zh: b}\n"
    root = pack(tmp_path, {"q.yaml": question(extra=extra)})
    assert problems(load_bank([root])) == [
        "q.yaml:8:5: error: missing required key 'back' at cards.0.back",
        "q.yaml:10:5: error: unknown key 'bak' at cards.0.bak; did you mean 'back'?",
    ]


def test_unknown_key_with_nothing_close_has_no_suggestion(tmp_path):
    root = pack(tmp_path, {"q.yaml": question(extra="zzzzzz: 1\n")})
    assert problems(load_bank([root])) == ["q.yaml:7:1: error: unknown key 'zzzzzz' at zzzzzz"]


def test_missing_key_points_at_the_parent(tmp_path):
    text = question().replace('answer: {zh: "答", en: "A"}\n', "")
    root = pack(tmp_path, {"q.yaml": text})
    assert problems(load_bank([root])) == ["q.yaml:1:1: error: missing required key 'answer' at answer"]


def test_wrong_type_shows_what_was_given(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace("number: 1", "number: '7'")})
    (p,) = load_bank([root]).problems
    assert (p.line, p.col) == (3, 9)
    assert p.message.startswith("number: ") and p.message.endswith("(got '7')")


def test_a_long_wrong_value_is_cut(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace("number: 1", "number: '" + "x" * 100 + "'")})
    (p,) = load_bank([root]).problems
    assert p.message.endswith("(got '" + "x" * 56 + "...)")


def test_a_wrong_mapping_or_list_is_named_by_type(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace("number: 1", "number: {a: 1}")})
    assert load_bank([root]).problems[0].message.endswith("(got dict)")
    root2 = pack(tmp_path / "two", {"q.yaml": question().replace("number: 1", "number: [1]")})
    assert load_bank([root2]).problems[0].message.endswith("(got list)")


def test_top_level_must_be_a_mapping(tmp_path):
    root = pack(tmp_path, {"q.yaml": "- 1\n- 2\n"})
    assert problems(load_bank([root])) == ["q.yaml:1:1: error: expected a mapping of keys at the top level, found list"]


def test_a_newer_format_version_asks_for_an_upgrade(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace("format_version: 1", "format_version: 2")})
    assert problems(load_bank([root])) == [
        "q.yaml:1:17: error: format_version 2 is newer than this app reads (1); upgrade the app"
    ]


def test_a_bool_format_version_is_not_taken_for_a_newer_one(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace("format_version: 1", "format_version: true")})
    assert not [p for p in load_bank([root]).problems if "newer" in p.message]


def test_missing_translation_is_a_warning_then_an_error_under_strict(tmp_path):
    text = question().replace('answer: {zh: "答", en: "A"}', 'answer: {en: "A"}')
    text += "key_points: {zh: [要点]}\nmemory_points: {}\n"
    root = pack(tmp_path, {"q.yaml": text})
    assert problems(load_bank([root])) == [
        "q.yaml:6:9: warning: missing 'zh' text at answer",
        "q.yaml:7:13: warning: missing 'en' text at key_points",
    ]
    strict = load_bank([root], strict=True)
    assert [p.severity for p in strict.problems] == ["error", "error"]
    assert list(strict.questions) == []  # an error keeps the question out


def test_an_empty_text_is_an_error_even_without_strict(tmp_path):
    root = pack(tmp_path, {"q.yaml": question().replace('answer: {zh: "答", en: "A"}', "answer: {}")})
    bank = load_bank([root])
    assert problems(bank) == ["q.yaml:6:9: error: empty text at answer: give zh and en"]
    assert bank.questions == {}


def test_translation_problems_reach_into_lists(tmp_path):
    extra = "cards:\n  - id: c\n    front: {en: f}\n    back: {en: b, zh: b}\n"
    root = pack(tmp_path, {"q.yaml": question(extra=extra)})
    assert problems(load_bank([root])) == ["q.yaml:9:12: warning: missing 'zh' text at cards.0.front"]


def test_duplicate_question_id_names_the_first_file(tmp_path):
    root = pack(tmp_path, {"a.yaml": question("q-one", 1), "b.yaml": question("q-one", 2)})
    bank = load_bank([root])
    assert problems(bank) == [f"b.yaml:2:5: error: duplicate question id 'q-one' (first defined in {root / 'a.yaml'})"]
    assert bank.question_paths["q-one"] == root / "a.yaml"


def test_builtin_questions_need_a_number(tmp_path):
    text = question().replace("number: 1\n", "")
    root = pack(tmp_path, {"q.yaml": text})
    assert problems(load_bank([root], builtin=root)) == [
        "q.yaml:2:5: error: built-in questions need a syllabus 'number'"
    ]
    assert load_bank([root]).problems == []  # a user's pack may leave numbers out


def test_duplicate_module_ids_are_reported(tmp_path):
    root = pack(tmp_path / "one")
    other = write(tmp_path / "two", "modules.yaml", MODULES.replace("number: 2", "number: 3"))
    bank = load_bank([root, other.parent])
    assert problems(bank) == [
        "modules.yaml:3:10: error: duplicate module id 'alpha'",
        "modules.yaml:4:10: error: duplicate module id 'beta'",
    ]
    assert bank.modules["beta"].number == 2


# --- cross-file checks ----------------------------------------------------------------------------


def test_cross_references(tmp_path):
    extra = "exercises: [no-such]\nrelated: [q-two, q-one, ghost]\n"
    root = pack(tmp_path, {"a.yaml": question("q-one", 1, extra), "b.yaml": question("q-two", 1)})
    write(root, "c.yaml", question("q-three", 3).replace("module: alpha", "module: gamma"))
    assert problems(load_bank([root])) == [
        "a.yaml:7:13: error: unknown exercise id 'no-such'",
        "a.yaml:8:18: error: a question cannot be related to itself",
        "a.yaml:8:25: error: unknown question id 'ghost' in related",
        f"b.yaml:3:9: error: number 1 is also used by 'q-one' ({root / 'a.yaml'})",
        "c.yaml:4:9: error: unknown module 'gamma' (modules are listed in modules.yaml)",
    ]


def test_duplicate_card_and_choice_ids_within_a_question(tmp_path):
    extra = (
        "cards:\n"
        "  - {id: c, front: {en: f, zh: f}, back: {en: b, zh: b}}\n"
        "  - {id: c, front: {en: f, zh: f}, back: {en: b, zh: b}}\n"
        "choices:\n"
        "  - id: k\n    prompt: {en: p, zh: p}\n    explain: {en: e, zh: e}\n"
        "    options: [{text: {en: a, zh: a}, correct: true}, {text: {en: b, zh: b}}]\n"
        "  - id: k\n    prompt: {en: p, zh: p}\n    explain: {en: e, zh: e}\n"
        "    options: [{text: {en: a, zh: a}}, {text: {en: b, zh: b}}]\n"
        "  - id: m\n    prompt: {en: p, zh: p}\n    explain: {en: e, zh: e}\n"
        "    options: [{text: {en: a, zh: a}, correct: true}, {text: {en: b, zh: b}, correct: true}]\n"
        "  - id: n\n    prompt: {en: p, zh: p}\n    explain: {en: e, zh: e}\n    select_all: true\n"
        "    options: [{text: {en: a, zh: a}, correct: true}, {text: {en: b, zh: b}, correct: true}]\n"
    )
    root = pack(tmp_path, {"q.yaml": question(extra=extra)})
    assert problems(load_bank([root])) == [
        "q.yaml:9:10: error: duplicate card id 'c' in this question",
        "q.yaml:15:9: error: duplicate choice id 'k' in this question",
        "q.yaml:18:14: error: no option is marked 'correct: true'",
        "q.yaml:22:14: error: 2 options are marked correct; set 'select_all: true' or keep one",
    ]


def test_exercise_cross_references(tmp_path):
    root = pack(tmp_path, {"q.yaml": question()})
    folder = exercise(root, "ex-one", "ghost")
    write(folder, "exercise.yaml", (folder / "exercise.yaml").read_text().replace("module: alpha", "module: gamma"))
    assert problems(load_bank([root])) == [
        "exercise.yaml:4:9: error: unknown module 'gamma'",
        "exercise.yaml:5:13: error: unknown question id 'ghost'",
    ]


def test_exercise_folder_needs_starter_and_solution(tmp_path):
    root = pack(tmp_path, {"q.yaml": question()})
    exercise(root, "ex-one", files=("starter.py",))
    exercise(root, "ex-two", files=())
    bank = load_bank([root])
    assert problems(bank) == [
        "exercise.yaml:2:5: error: exercise folder lacks solution.py",
        "exercise.yaml:2:5: error: exercise folder lacks starter.py and solution.py",
    ]
    assert bank.exercises == {}


def test_duplicate_exercise_ids(tmp_path):
    root = pack(tmp_path, {"q.yaml": question()})
    first = exercise(root, "ex-one")
    second = root / "more" / "ex-one"
    write(second, "exercise.yaml", (first / "exercise.yaml").read_text())
    for name in ("starter.py", "solution.py"):
        write(second, name, "x = 1\n")
    bank = load_bank([root])
    assert problems(bank) == [
        f"exercise.yaml:2:5: error: duplicate exercise id 'ex-one' (first defined in {first / 'exercise.yaml'})"
    ]
    assert bank.exercise_dirs["ex-one"] == first


def test_an_invalid_exercise_is_left_out(tmp_path):
    root = pack(tmp_path, {"q.yaml": question()})
    folder = exercise(root)
    write(folder, "exercise.yaml", (folder / "exercise.yaml").read_text().replace("entry: Double", "entry: 1bad"))
    bank = load_bank([root])
    assert bank.exercises == {} and len(bank.errors) == 1 and "entry" in bank.errors[0].message


def test_module_numbers_must_be_unique(tmp_path):
    write(tmp_path, "modules.yaml", MODULES.replace("number: 2", "number: 1"))
    assert problems(load_bank([tmp_path])) == ["modules.yaml:1:1: error: module number 1 is used by 'alpha' and 'beta'"]


# --- YAML safety ------------------------------------------------------------------------------------


def doc_problems(tmp_path, raw: bytes) -> list[str]:
    path = tmp_path / "x.yaml"
    path.write_bytes(raw)
    doc, found = read_yaml(path)
    assert doc is None
    return [f"{p.line}:{p.col}: {p.message}" for p in found]


def test_yaml_problems_with_positions(tmp_path):
    assert doc_problems(tmp_path, b"a: 1\nb: \xff\n") == ["2:4: not valid UTF-8 (byte 0xff); save the file as UTF-8"]
    assert doc_problems(tmp_path, b"  \n\n") == ["1:1: file is empty"]
    assert doc_problems(tmp_path, b"# only a comment\n") == ["1:1: file holds no YAML document"]
    assert doc_problems(tmp_path, b"a: 1\na: 2\n") == ["2:1: duplicate key 'a'"]
    assert doc_problems(tmp_path, b"a: &x 1\nb: *x\n") == [
        "1:4: YAML anchors and aliases (&name / *name) are not allowed in content"
    ]
    assert doc_problems(tmp_path, b"a: !!python/object:os.system x\n") == [
        "1:4: unsupported YAML: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object:os.system' (content allows plain YAML only)"
    ]
    (tab,) = doc_problems(tmp_path, b"a:\n\tb: 1\n")
    assert tab.startswith("2:1: YAML syntax: ") and tab.endswith("(indent with spaces; YAML does not allow tabs here)")
    (bad,) = doc_problems(tmp_path, b"a: [1, 2\n")
    assert bad.startswith("2:1: YAML syntax: ") and "tabs" not in bad
    assert doc_problems(tmp_path, b"a: 1\n---\nb: 2\n") == ["2:1: YAML syntax: but found another document"]


def test_too_many_nodes(tmp_path, monkeypatch):
    assert MAX_NODES == 200_000
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 20)
    flat = ("[" + ",".join(["1"] * 25) + "]\n").encode()
    assert doc_problems(tmp_path, flat) == ["1:40: document has more than 20 YAML nodes"]
    doc, found = parse_yaml(tmp_path / "x.yaml", ("[" + ",".join(["1"] * 19) + "]\n").encode())
    assert found == [] and len(doc.data) == 19  # the list and its 19 items: 20 nodes


def test_size_limit_and_unreadable_files(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 2_600_000)
    doc, (p,) = read_yaml(big)
    assert doc is None and str(p) == f"{big}:1:1: error: file is 2.6 MB; a content file may be at most 1 MB"
    doc, (p,) = read_yaml(tmp_path / "absent.yaml")
    assert doc is None and p.message == "cannot read file: No such file or directory"
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    doc, (p,) = read_yaml(folder)
    assert doc is None and p.message == "is a folder; content files must be regular files"


def test_a_byte_order_mark_is_ignored_and_marks_find_keys(tmp_path):
    doc, found = parse_yaml(tmp_path / "x.yaml", "\ufeffa:\n  - {b: 1}\n  - {c: 2, d: 3}\n".encode())
    assert found == [] and doc.data == {"a": [{"b": 1}, {"c": 2, "d": 3}]}
    assert (doc.mark(("a", 1, "d")).line, doc.mark(("a", 1, "d")).column) == (2, 14)
    assert doc.mark(("a", 5)).line == 1  # past the end: the deepest node reached, a's list
    assert doc.key_mark(("a", 1, "d")).column == 11
    assert doc.key_mark(("a", 1, "zz")).line == 2  # no such key: the mapping itself
    assert doc.key_mark(("nope", "x")).line == 0
    p = doc.problem(("a", 0, "b"), "m", "warning")
    assert (p.line, p.col, p.severity) == (2, 9, "warning")


# --- problems, models, construct, cache -------------------------------------------------------------


def test_problem_text_dict_and_order():
    p = Problem("f.yaml", 3, 4, "bad", "warning")
    assert str(p) == "f.yaml:3:4: warning: bad"
    assert p.to_dict() == {"path": "f.yaml", "line": 3, "col": 4, "severity": "warning", "message": "bad"}
    assert not p.is_error and Problem("f", 1, 1, "m").is_error
    assert sorted([Problem("b", 1, 1, "m"), Problem("a", 9, 1, "m")])[0].path == "a"
    assert problem_at("f", None, "m") == Problem("f", 1, 1, "m")

    class Mark:
        line, column = 4, 0

    assert problem_at(Path("f"), Mark(), "m", "warning") == Problem("f", 5, 1, "m", "warning")


def test_text_falls_back_to_the_other_language():
    assert Text(zh="中", en="E").get("zh") == "中"
    assert Text(en="E").get("zh") == "E"
    assert Text(zh="中").get("en") == "中"
    assert Text().get("en") == ""
    assert TextList(en=["a"]).get("zh") == ["a"] and TextList(zh=["b"]).get("en") == ["b"]
    assert TextList().get("en") == []


def test_construct_rebuilds_what_validation_built(tmp_path):
    extra = (
        "tags: [t]\nkeywords: [k]\nkey_points: {zh: [点], en: [p]}\n"
        "cards:\n  - {id: c, front: {en: f, zh: f}, back: {en: b, zh: b}}\n"
        "choices:\n  - id: k\n    prompt: {en: p, zh: p}\n    explain: {en: e, zh: e}\n"
        "    options: [{text: {en: a, zh: a}, correct: true}, {text: {en: b, zh: b}}]\n"
        "follow_ups:\n  - {question: {en: q, zh: q}, answer: {en: a, zh: a}}\n"
    )
    root = pack(tmp_path, {"q.yaml": question(extra=extra)})
    original = load_bank([root]).questions["q-one"]
    rebuilt = construct(Question, original.model_dump())
    assert rebuilt == original
    assert type(rebuilt.cards[0].front) is Text and type(rebuilt.key_points) is TextList
    assert rebuilt.choices[0].options[0].correct is True and rebuilt.follow_ups[0].answer.en == "a"


def test_the_cache_serves_unchanged_files_and_rereads_changed_ones(tmp_path):
    root = pack(tmp_path / "c", {"q.yaml": question()})
    cache_file = tmp_path / "cache" / "content.json"
    first = load_bank([root], cache_file=cache_file)
    assert cache_file.is_file()
    stored = json.loads(cache_file.read_text(encoding="utf-8"))
    assert stored["signature"][0] == CACHE_VERSION
    assert sorted(row[:3] for row in stored["entries"]) == [
        [str(root / "modules.yaml"), "modules", False],
        [str(root / "q.yaml"), "question", False],
    ]
    again = load_bank([root], cache_file=cache_file)
    assert again.questions == first.questions and again.problems == []
    path = root / "q.yaml"
    path.write_text(question().replace('en: "A"', 'en: "Changed answer"'), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    changed = load_bank([root], cache_file=cache_file)
    assert changed.questions["q-one"].answer.en == "Changed answer"


def test_the_cache_keeps_problems_and_strictness_apart(tmp_path):
    text = question().replace('answer: {zh: "答", en: "A"}', 'answer: {en: "A"}')
    root = pack(tmp_path / "c", {"q.yaml": text, "bad.yaml": "a: [\n"})
    cache_file = tmp_path / "content.json"
    loose = load_bank([root], cache_file=cache_file)
    strict = load_bank([root], strict=True, cache_file=cache_file)
    again = load_bank([root], cache_file=cache_file)
    assert [p.severity for p in loose.problems] == [p.severity for p in again.problems] == ["error", "warning"]
    assert [p.severity for p in strict.problems] == ["error", "error"]
    assert list(again.questions) == ["q-one"] and strict.questions == {}


def test_a_broken_or_foreign_cache_is_rebuilt(tmp_path):
    root = pack(tmp_path / "c", {"q.yaml": question()})
    cache_file = tmp_path / "content.json"
    cache_file.write_bytes(b"\x80\x04not json")
    assert list(load_bank([root], cache_file=cache_file).questions) == ["q-one"]
    assert json.loads(cache_file.read_text(encoding="utf-8"))["entries"]
    cache_file.write_text(json.dumps({"signature": ["old"], "entries": [["x", "question", False, [1, 1], {}, []]]}))
    cache = ParseCache(cache_file)
    assert cache.entries == {} and not cache.dirty


def test_cache_get_put_and_save(tmp_path):
    cache = ParseCache(None)
    target = write(tmp_path, "q.yaml", "x")
    assert cache.get(target, "question", False) is None
    cache.put(target, "question", False, ("data", []))
    assert cache.dirty and cache.get(target, "question", False) == ("data", [])
    assert cache.get(target, "question", True) is None and cache.get(target, "exercise", False) is None
    cache.put(tmp_path / "gone.yaml", "question", False, ("d", []))
    assert (str(tmp_path / "gone.yaml"), "question", False) not in cache.entries
    cache.save()  # no file: nothing written, nothing raised
    saved = ParseCache(tmp_path / "sub" / "c.json")
    saved.put(target, "question", False, ("data", []))
    saved.save()
    assert not saved.dirty and ParseCache(tmp_path / "sub" / "c.json").get(target, "question", False) == ("data", [])
    assert list((tmp_path / "sub").iterdir()) == [tmp_path / "sub" / "c.json"]


def test_an_unwritable_cache_is_not_fatal(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    cache = ParseCache(blocker / "c.json")
    cache.put(write(tmp_path, "q.yaml", "x"), "question", False, ("d", []))
    cache.save()
    assert cache.dirty


# --- roots ----------------------------------------------------------------------------------------


def test_content_roots_in_order_without_repeats(tmp_path, monkeypatch):
    from quiz import paths

    a, b = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("QUIZ_CONTENT_PATH", os.pathsep.join([str(a), str(b)]))
    assert content_roots([b, tmp_path / "c"]) == [paths.builtin_content_dir(), a, b, tmp_path / "c"]


def test_default_bank_uses_the_cache_unless_told_not_to(tmp_path, monkeypatch, isolated_home):
    from quiz import paths

    monkeypatch.setattr(paths, "builtin_content_dir", lambda: pack(tmp_path / "builtin", {"q.yaml": question()}))
    monkeypatch.setenv("QUIZ_NO_CACHE", "1")
    assert list(load_default_bank().questions) == ["q-one"]
    assert not (isolated_home / "cache" / "content.json").exists()
    monkeypatch.delenv("QUIZ_NO_CACHE")
    extra = pack(tmp_path / "extra", {"q2.yaml": question("q-two", 2).replace("number: 2\n", "")})
    bank = load_default_bank([extra])
    assert sorted(bank.questions) == ["q-one", "q-two"] and bank.problems == [
        p for p in bank.problems if "duplicate module" in p.message
    ]
    assert (isolated_home / "cache" / "content.json").is_file()
