"""The parsed-content cache: same bank either way, edits are seen, a broken cache is rebuilt."""

from __future__ import annotations

import os

from content_helpers import write
from quiz.content.loader import load_bank


def test_cache_gives_the_same_bank_and_sees_edits(tmp_path, valid_text):
    pack, cache = tmp_path / "pack", tmp_path / "cache.json"
    path = write(pack, "q.yaml", valid_text)
    first = load_bank([pack], cache_file=cache)
    assert cache.is_file()
    second = load_bank([pack], cache_file=cache)
    assert second.questions == first.questions and second.problems == first.problems
    write(pack, "q.yaml", valid_text.replace("What is a leaf tensor?", "What is a leaf?"))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))
    third = load_bank([pack], cache_file=cache)
    assert third.questions["sample-question"].question.en == "What is a leaf?"


def test_cached_problems_are_reported_again(tmp_path, valid_text):
    pack, cache = tmp_path / "pack", tmp_path / "cache.json"
    write(pack, "q.yaml", valid_text.replace("difficulty: 1", "difficulty: 9"))
    first = load_bank([pack], cache_file=cache)
    second = load_bank([pack], cache_file=cache)
    assert first.errors and [str(p) for p in second.errors] == [str(p) for p in first.errors]


def test_broken_cache_file_is_ignored(tmp_path, valid_text):
    pack, cache = tmp_path / "pack", tmp_path / "cache.json"
    write(pack, "q.yaml", valid_text)
    cache.write_bytes(b"not a pickle")
    bank = load_bank([pack], cache_file=cache)
    assert "sample-question" in bank.questions


class _Plant:
    """Unpickling this would create a file: the cache must never be unpickled."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_pickle_in_the_cache_file_is_never_run(tmp_path, valid_text):
    import pickle

    pack, cache, marker = tmp_path / "pack", tmp_path / "cache.json", tmp_path / "ran"
    write(pack, "q.yaml", valid_text)
    cache.write_bytes(pickle.dumps({"signature": None, "entries": _Plant(marker)}))
    bank = load_bank([pack], cache_file=cache)
    assert "sample-question" in bank.questions
    assert not marker.exists()
    assert cache.read_bytes().startswith(b"{"), "the rebuilt cache is JSON"


def test_a_cache_entry_for_another_version_of_a_file_is_not_used(tmp_path, valid_text):
    import json

    pack, cache = tmp_path / "pack", tmp_path / "cache.json"
    write(pack, "q.yaml", valid_text)
    load_bank([pack], cache_file=cache)
    stored = json.loads(cache.read_text(encoding="utf-8"))
    for row in stored["entries"]:
        if row[4] and "question" in row[4]:
            row[4]["question"]["en"] = "forged"
            row[3][0] += 1  # a size the file does not have
    cache.write_text(json.dumps(stored), encoding="utf-8")
    bank = load_bank([pack], cache_file=cache)
    assert bank.questions["sample-question"].question.en != "forged"


def test_a_field_that_may_be_plain_or_a_model_comes_back_from_the_cache(tmp_path):
    """A check's name may be a string or {zh, en}: both survive a warm (cached) load."""
    import shutil

    from pathlib import Path

    fixture = Path(__file__).parent / "fixtures" / "exercises" / "double"
    pack, cache = tmp_path / "pack", tmp_path / "cache.json"
    shutil.copytree(fixture, pack / "exercises" / "double")
    spec = pack / "exercises" / "double" / "exercise.yaml"
    text = spec.read_text(encoding="utf-8").replace(
        "  - kind: gradcheck\n", "  - kind: gradcheck\n    name: plain name\n", 1
    )
    text = text.replace("  - kind: reference\n", "  - kind: reference\n    name: {en: in English, zh: 中文名}\n", 1)
    spec.write_text(text, encoding="utf-8")
    cold = load_bank([pack], cache_file=cache)
    warm = load_bank([pack], cache_file=cache)
    for bank in (cold, warm):
        names = [c.name for c in bank.exercises["double-fixture"].checks]
        assert names[0] == "plain name" and names[1].zh == "中文名"
