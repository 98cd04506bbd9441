"""Keyword concept groups: matching ignores case and width, every built-in answer covers its groups, validate names the gaps."""

from __future__ import annotations

import pytest
from content_helpers import load_pack, write

from quiz import paths
from quiz.content.keywords import coverage, label, normalize, own_language_covers
from quiz.content.loader import load_bank
from quiz.content.models import KeywordGroup

INDUCTOR = KeywordGroup(en=["TorchInductor", "Inductor"], zh=["TorchInductor", "Inductor"])
SAVED = KeywordGroup(en=["saved tensors", "save_for_backward"], zh=["save_for_backward", "保存"])


@pytest.fixture(scope="module")
def builtin_bank():
    root = paths.builtin_content_dir()
    return load_bank([root], strict=True, builtin=root)


def test_every_builtin_answer_covers_its_own_keyword_groups(builtin_bank):
    assert len(builtin_bank.questions) >= 95
    gaps = []
    for qid, q in builtin_bank.questions.items():
        assert q.keywords, qid
        for i, group in enumerate(q.keywords):
            assert isinstance(group, KeywordGroup), f"{qid}: keyword {i} is a plain string"
            for lang in ("en", "zh"):
                if not own_language_covers(normalize(getattr(q.answer, lang)), group, lang):
                    gaps.append(f"{qid} {lang} {getattr(group, lang)}")
    assert gaps == []


def test_the_official_answer_scores_full_coverage(builtin_bank):
    for q in builtin_bank.questions.values():
        for lang in ("en", "zh"):
            covered, missing = coverage(getattr(q.answer, lang), q.keywords, lang)
            assert missing == [] and len(covered) == len(q.keywords), (q.id, lang)


@pytest.mark.parametrize(
    "typed",
    ["torchinductor", "TORCHINDUCTOR", "ＴｏｒｃｈＩｎｄｕｃｔｏｒ", "the inductor backend", "ＩＮＤＵＣＴＯＲ"],
)
def test_matching_ignores_case_and_width(typed):
    covered, missing = coverage(typed, [INDUCTOR], "en")
    assert covered == [INDUCTOR] and missing == []


def test_a_synonym_covers_the_group_and_the_other_language_counts_too():
    assert coverage("ctx.save_for_backward(x)", [SAVED], "en")[0] == [SAVED]
    assert coverage("用 saved tensors 存下来", [SAVED], "zh")[0] == [SAVED]  # an English term in a zh answer
    assert coverage("我们把它保存下来", [SAVED], "zh")[0] == [SAVED]
    assert coverage("nothing relevant", [SAVED], "en") == ([], [SAVED])
    assert label(SAVED, "zh") == "save_for_backward" and label(SAVED, "en") == "saved tensors"


def test_separators_are_ignored_but_words_still_have_to_appear():
    group = KeywordGroup(en=["all-reduce"], zh=["all-reduce"])
    assert coverage("an allreduce per bucket", [group], "en")[0] == [group]
    assert coverage("All Reduce", [group], "en")[0] == [group]
    assert coverage("a reduce", [group], "en")[1] == [group]


def test_plain_string_keywords_stay_accepted_in_a_pack(tmp_path, valid_text):
    write(
        tmp_path,
        "q.yaml",
        valid_text.replace(
            "keywords: [{en: [created directly], zh: [直接创建]}, {en: [user], zh: [用户]}]", "keywords: [leaf, 用户]"
        ),
    )
    bank = load_pack(tmp_path)
    assert bank.errors == []
    assert bank.questions["sample-question"].keywords == ["leaf", "用户"]
    # one term in both languages: each answer is missing the other language's word
    assert sorted(p.message.split(";")[0] for p in bank.warnings) == [
        "keyword 'leaf' is not in the zh answer",
        "keyword '用户' is not in the en answer",
    ]


def test_validate_names_the_group_the_answer_misses(tmp_path, valid_text):
    path = write(tmp_path, "q.yaml", valid_text.replace("{en: [user], zh: [用户]}", "{en: [user], zh: [梯度]}"))
    warned = load_pack(tmp_path)
    assert [str(p) for p in warned.problems] == [
        f"{path}:6:50: warning: keyword '梯度' is not in the zh answer; add the synonym the answer uses, or drop the keyword"
    ]
    strict = load_pack(tmp_path, strict=True)
    assert [p.severity for p in strict.problems] == ["error"]


def test_a_group_needs_both_languages(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace("{en: [user], zh: [用户]}", "{en: [user]}"))
    bank = load_pack(tmp_path)
    assert bank.errors and "keywords.1" in bank.errors[0].message


def test_builtin_bank_flags_plain_string_keywords(tmp_path, valid_text):
    write(tmp_path, "modules.yaml", (paths.builtin_content_dir() / "modules.yaml").read_text(encoding="utf-8"))
    text = valid_text.replace("id: sample-question", "id: sample-question\nnumber: 1")
    text = text.replace("由用户直接创建", "由用户（user）直接创建")
    path = write(tmp_path, "q.yaml", text.replace("{en: [user], zh: [用户]}", "user"))
    bank = load_bank([tmp_path], strict=True, builtin=tmp_path)
    plain = [p for p in bank.problems if "plain keyword" in p.message]
    assert len(plain) == 1 and plain[0].path == str(path) and plain[0].line == 7 and plain[0].is_error
