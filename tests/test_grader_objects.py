"""Learner objects used the way Python uses them: a descriptor in a test's class body, a class handed back to the
learner's metaclass as a base. The child records these calls and the judge replays them in the same order."""

from __future__ import annotations

import pytest

from quiz.grader import wire
from quiz.grader.kinds.function import Log, Recorder, Replay, Replays, _unwrap


class Positive:
    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return self if obj is None else obj.__dict__[self.name]

    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f"{self.name} must be positive")
        obj.__dict__[self.name] = value


def _use_descriptor(entry):
    class Config:
        size = entry()

    c = Config()
    c.size = 3
    with pytest.raises(ValueError, match="size must be positive"):
        c.size = -1
    return c.size


def _records(test, target):
    log = Log("answer.py")
    result = test(Recorder(target, 0, log))
    return result, wire.decode(wire.encode(log.records))


def test_a_descriptor_in_a_class_body_is_recorded_and_replayed_in_order():
    got, records = _records(_use_descriptor, Positive)
    assert got == 3
    assert [(r["attr"], r["op"]) for r in records] == [
        (None, "call"),
        ("__set_name__", "call"),
        ("__set__", "call"),
        ("__set__", "call"),
        ("__get__", "call"),
    ]
    assert records[3]["raised"]["type"] == "ValueError"
    assert _use_descriptor(Replay(Replays(records))) == 3  # the judge: no learner code, same answers


def test_a_set_on_a_descriptor_without_set_is_an_attribute_error_on_both_sides():
    class GetOnly:
        def __get__(self, obj, objtype=None):
            return 7

    def test(entry):
        class C:
            x = entry()

        c = C()
        with pytest.raises(AttributeError):
            c.x = 1
        return c.x

    got, records = _records(test, GetOnly)
    assert got == 7 and test(Replay(Replays(records))) == 7


def test_a_learner_class_passed_back_as_a_base_reaches_the_metaclass_as_itself():
    class Meta(type):
        pass

    def test(entry):
        base = entry("Base", (), {})
        child = entry("Child", (base,), {"x": 1})
        return child.x

    got, records = _records(test, Meta)
    assert got == 1 and len(records) == 3


def test_unwrap_keeps_containers_without_proxies_as_they_are():
    items, table, pair = [1, 2], {"a": [1]}, (1, "x")
    assert _unwrap(items) is items and _unwrap(table) is table and _unwrap(pair) is pair
    log = Log("answer.py")
    proxy = Recorder(Positive(), 1, log)
    assert type(_unwrap((proxy, 1))[0]) is Positive
