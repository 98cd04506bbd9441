"""The shipped bank loads whole: every exercise folder and every question file becomes part of it."""

from __future__ import annotations

from quiz import paths
from quiz.content.loader import load_bank

BUILTIN = paths.builtin_content_dir()


def test_every_exercise_folder_and_question_file_loads():
    bank = load_bank([BUILTIN], strict=True, builtin=BUILTIN)
    assert [str(p) for p in bank.problems] == []
    folders = sorted(p for p in BUILTIN.glob("*/exercises/*") if p.is_dir())
    assert folders, "the shipped bank has exercises"
    assert sorted(bank.exercise_dirs.values()) == folders
    for folder in folders:
        assert (folder / "exercise.yaml").is_file(), folder
        assert len(list((folder / "mutants").glob("*.py"))) >= 2, f"{folder.name}: at least two mutants"
    files = sorted(BUILTIN.glob("[0-9][0-9]-*/*.yaml"))
    assert sorted(bank.question_paths.values()) == files
