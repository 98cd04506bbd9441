"""Grader messages and check names follow the learner's language."""

from __future__ import annotations

import pytest

from grader_helpers import FIXTURE, WRONG_DOUBLE, load_exercise
from quiz.grader.runner import GraderWorker


@pytest.fixture(scope="module")
def worker():
    with GraderWorker() as w:
        yield w


def test_check_names_and_messages_in_chinese(worker, tmp_path):
    exercise = load_exercise(FIXTURE)
    exercise["checks"][0]["name"] = {"en": "gradients of Double", "zh": "Double 的梯度"}
    zh = grade_source_lang(worker, tmp_path, exercise, "zh")
    en = grade_source_lang(worker, tmp_path, exercise, "en")
    assert zh.tests[0].name == "Double 的梯度" and en.tests[0].name == "gradients of Double"
    assert zh.tests[0].message != en.tests[0].message
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh.tests[0].message)


def grade_source_lang(worker, tmp_path, exercise, lang):
    path = tmp_path / "answer.py"
    path.write_text(WRONG_DOUBLE, encoding="utf-8")
    return worker.grade(exercise, FIXTURE, path, lang=lang)
