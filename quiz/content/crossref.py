"""Checks across files: known modules, questions and exercises, unique numbers, sound choices."""

from __future__ import annotations

from pathlib import Path

from quiz.content.bank import Bank
from quiz.content.models import Choice
from quiz.content.problems import Problem


def at(path: Path, loc: tuple, message: str, severity: str = "error") -> Problem:
    """Re-read the file only now, when there is something to report, to find the line."""
    from quiz.content.yamlsafe import read_yaml

    doc, _ = read_yaml(path)
    if doc is None:
        return Problem(str(path), 1, 1, message, severity)
    return doc.problem(loc, message, severity)


def check(bank: Bank, strict: bool) -> None:
    out = bank.problems
    numbers: dict[int, str] = {}
    for qid, q in bank.questions.items():
        path = bank.question_paths[qid]
        if q.module not in bank.modules:
            out.append(at(path, ("module",), f"unknown module '{q.module}' (modules are listed in modules.yaml)"))
        if q.number is not None:
            if q.number in numbers:
                other = numbers[q.number]
                out.append(at(path, ("number",), f"number {q.number} is also used by '{other}' ({bank.question_paths[other]})"))
            else:
                numbers[q.number] = qid
        for i, ref in enumerate(q.exercises):
            if ref not in bank.exercises:
                out.append(at(path, ("exercises", i), f"unknown exercise id '{ref}'"))
        for i, rel in enumerate(q.related):
            if rel not in bank.questions:
                out.append(at(path, ("related", i), f"unknown question id '{rel}' in related"))
            elif rel == qid:
                out.append(at(path, ("related", i), "a question cannot be related to itself"))
        _unique(out, path, "cards", [c.id for c in q.cards])
        _unique(out, path, "choices", [c.id for c in q.choices])
        for i, choice in enumerate(q.choices):
            message = _choice_problem(choice)
            if message:
                out.append(at(path, ("choices", i, "options"), message))
    for eid, ex in bank.exercises.items():
        path = bank.exercise_dirs[eid] / "exercise.yaml"
        if ex.module not in bank.modules:
            out.append(at(path, ("module",), f"unknown module '{ex.module}'"))
        for i, qid in enumerate(ex.questions):
            if qid not in bank.questions:
                out.append(at(path, ("questions", i), f"unknown question id '{qid}'"))
    _module_problems(bank)


def _unique(out: list[Problem], path: Path, key: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            out.append(at(path, (key, i, "id"), f"duplicate {key[:-1]} id '{item}' in this question"))
        seen.add(item)


def _choice_problem(choice: Choice) -> str | None:
    correct = sum(o.correct for o in choice.options)
    if correct == 0:
        return "no option is marked 'correct: true'"
    if correct > 1 and not choice.select_all:
        return f"{correct} options are marked correct; set 'select_all: true' or keep one"
    return None


def _module_problems(bank: Bank) -> None:
    seen: dict[int, str] = {}
    for module in bank.ordered_modules():
        if module.number in seen:
            bank.problems.append(Problem("modules.yaml", 1, 1, f"module number {module.number} is used by '{seen[module.number]}' and '{module.id}'"))
        seen[module.number] = module.id
