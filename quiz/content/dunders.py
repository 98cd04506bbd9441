"""Dunder names (`__call__`) outside code: Markdown reads them as bold; escape them, or report them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quiz.content.bank import Bank
    from quiz.content.problems import Problem

DUNDER = re.compile(r"(?<![\w\\])__([A-Za-z][A-Za-z0-9_]*?)__(?!\w)")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def _prose(text: str) -> Iterator[tuple[int, str]]:
    """(offset, piece) for every stretch of `text` outside fenced blocks and inline code spans."""
    offset, fence = 0, None
    for line in text.splitlines(keepends=True):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * 3
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            last = 0
            for code in _INLINE_CODE.finditer(line):
                yield offset + last, line[last:code.start()]
                last = code.end()
            yield offset + last, line[last:]
        offset += len(line)


def bare_dunders(text: str) -> list[tuple[int, str]]:
    """(offset, name) of each dunder name outside code."""
    return [(start + m.start(), m.group(0)) for start, piece in _prose(text) for m in DUNDER.finditer(piece)]


def escape_dunders(text: str) -> str:
    """`text` with every dunder outside code written as \\_\\_name\\_\\_, so it renders as typed."""
    found = bare_dunders(text)
    if not found:
        return text
    out, last = [], 0
    for offset, name in found:
        out += [text[last:offset], name.replace("_", "\\_") if name.startswith("__") else name]
        last = offset + len(name)
    out.append(text[last:])
    return "".join(out)


def dunder_problems(bank: Bank, strict: bool = False) -> list[Problem]:
    """A problem for each text field of the bank's questions and exercises with a dunder outside code."""
    from pydantic import BaseModel

    from quiz.content.models import LANGS, Text, TextList

    severity = "error" if strict else "warning"
    found: list = []

    def walk(path, value: Any, loc: tuple) -> None:
        if isinstance(value, (Text, TextList)):
            for lang in LANGS:
                texts = getattr(value, lang) or []
                for i, text in enumerate([texts] if isinstance(texts, str) else texts):
                    where = loc + (lang,) + ((i,) if isinstance(value, TextList) else ())
                    for offset, name in bare_dunders(text):
                        found.append(_problem(path, where, text, offset, name, severity))
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(path, getattr(value, name), loc + (name,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(path, item, loc + (i,))

    for qid, q in bank.questions.items():
        walk(bank.question_paths[qid], q, ())
    for eid, ex in bank.exercises.items():
        walk(bank.exercise_dirs[eid] / "exercise.yaml", ex, ())
    return found


def _problem(path, loc: tuple, text: str, offset: int, name: str, severity: str) -> Problem:
    """Point at the dunder itself: the line inside a block scalar, the column where the name is."""
    from quiz.content.problems import Problem
    from quiz.content.yamlsafe import read_yaml

    message = f"{name} outside code at {'.'.join(map(str, loc))} renders as bold; write it in backticks"
    doc, _ = read_yaml(path)
    node = doc.node(loc) if doc is not None else None
    if node is None:
        return Problem(str(path), 1, 1, message, severity)
    line = node.start_mark.line
    if getattr(node, "style", None) in ("|", ">"):
        line += 1 + text[:offset].count("\n")
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    col = lines[line].find(name) if 0 <= line < len(lines) else -1
    if col < 0:
        return Problem(str(path), node.start_mark.line + 1, node.start_mark.column + 1, message, severity)
    return Problem(str(path), line + 1, col + 1, message, severity)
