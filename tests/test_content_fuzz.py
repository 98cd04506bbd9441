"""Random mutations of a valid file never crash the loader; they only produce problems."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quiz.content.loader import load_bank

VALID = (Path(__file__).parent / "fixtures" / "pack" / "valid.yaml").read_bytes()
MODULES = b"format_version: 1\nmodules:\n  - {id: pytorch-internals, number: 1, name: {zh: a, en: a}, summary: {zh: b, en: b}}\n"


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(VALID)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap-lines", "truncate"]))
        pos = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "delete":
            del data[pos : pos + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[pos:pos] = draw(
                st.binary(min_size=1, max_size=12)
                | st.sampled_from([b":", b"- ", b"\t", b"&a ", b"*a", b"!!", b"{", b"[", b"\n  ", b'"'])
            )
        elif kind == "replace" and data:
            data[pos] = draw(st.integers(0, 255))
        elif kind == "swap-lines":
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
        else:
            del data[pos:]
    return bytes(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated())
def test_mutations_never_crash(tmp_path, raw):
    (tmp_path / "modules.yaml").write_bytes(MODULES)
    (tmp_path / "q.yaml").write_bytes(raw)
    bank = load_bank([tmp_path], strict=True)
    for problem in bank.problems:
        assert problem.line >= 1 and problem.col >= 1
        assert str(problem).startswith(str(tmp_path))
    assert len(bank.questions) <= 1
