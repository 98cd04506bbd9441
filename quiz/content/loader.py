"""Load and validate content folders into a Bank; bad files are reported and skipped, never fatal."""

from __future__ import annotations

import difflib
import gc
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from quiz.content import crossref
from quiz.content.bank import Bank
from quiz.content.cache import ParseCache
from quiz.content.construct import construct
from quiz.content.models import FORMAT_VERSION, LANGS, Exercise, ModulesFile, Question, Text, TextList
from quiz.content.problems import Problem

if TYPE_CHECKING:  # yaml is imported only when a file has to be parsed
    from quiz.content.yamlsafe import YamlDoc

log = logging.getLogger(__name__)

MODULES_FILE = "modules.yaml"
EXERCISE_FILE = "exercise.yaml"


def load_bank(roots: list[Path], strict: bool = False, builtin: Path | None = None,
              cache_file: Path | None = None) -> Bank:
    """Load every root in order; the first root is the built-in bank when `builtin` names it.

    With `cache_file`, files unchanged since the last load (same size and mtime) are not parsed again.
    """
    bank = Bank()
    paused = gc.isenabled()
    gc.disable()  # tens of thousands of small, acyclic objects: collecting mid-load only costs time
    try:
        cache = ParseCache(cache_file)
        for root in roots:
            _load_root(bank, Path(root), strict, builtin is not None and Path(root) == builtin, cache)
        cache.save()
    finally:
        if paused:
            gc.enable()
    crossref.check(bank, strict)
    bank.problems.sort(key=lambda p: (p.path, p.line, p.col))
    for p in bank.problems:
        log.debug("%s", p)
    return bank


def _load_root(bank: Bank, root: Path, strict: bool, is_builtin: bool, cache: ParseCache) -> None:
    if not root.is_dir():
        bank.problems.append(Problem(str(root), 1, 1, "content folder does not exist"))
        return
    modules = root / MODULES_FILE
    if modules.exists() or modules.is_symlink():
        _load_modules(bank, modules, strict, cache)
    exercise_dirs = sorted(p.parent for p in root.rglob(EXERCISE_FILE))
    inside = set(exercise_dirs)
    for path in sorted(root.rglob("*.yaml")) + sorted(root.rglob("*.yml")):
        if path == modules or path.name == EXERCISE_FILE or inside.intersection(path.parents):
            continue
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        _load_question(bank, path, strict, is_builtin, cache)
    for folder in exercise_dirs:
        _load_exercise(bank, folder, strict, cache)


def _validate(doc: YamlDoc, model: type[BaseModel], strict: bool) -> tuple[Any, list[Problem]]:
    data = doc.data
    if not isinstance(data, dict):
        return None, [doc.problem((), f"expected a mapping of keys at the top level, found {type(data).__name__}")]
    version = data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        return None, [doc.problem(("format_version",), f"format_version {version} is newer than this app reads ({FORMAT_VERSION}); upgrade the app")]
    try:
        obj = model.model_validate(data)
    except ValidationError as exc:
        return None, [_pydantic_problem(doc, model, err) for err in exc.errors()]
    problems = translation_problems(doc, obj, strict)
    if isinstance(obj, Question):
        problems += keyword_problems(doc, obj, strict)
    return obj, problems


def _pydantic_problem(doc: YamlDoc, model: type[BaseModel], err: Any) -> Problem:
    loc = tuple(err["loc"])
    where = ".".join(str(p) for p in loc) or "document"
    kind = err["type"]
    if kind == "extra_forbidden":
        name = str(loc[-1])
        hint = _suggest(model, loc, name)
        return doc.problem(loc, f"unknown key '{name}' at {where}{hint}", key=True)
    if kind == "missing":
        return doc.problem(loc[:-1], f"missing required key '{loc[-1]}' at {where}")
    got = err.get("input")
    shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return doc.problem(loc, f"{where}: {err['msg']} (got {shown})")


def _suggest(model: type[BaseModel], loc: tuple, name: str) -> str:
    fields = _fields_at(model, loc[:-1])
    close = difflib.get_close_matches(name, fields, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _fields_at(model: Any, loc: tuple) -> list[str]:
    for part in loc:
        if isinstance(part, int):
            continue
        info = getattr(model, "model_fields", {}).get(part)
        if info is None:
            return []
        model = _inner_model(info.annotation)
        if model is None:
            return []
    return list(getattr(model, "model_fields", {}))


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def translation_problems(doc: YamlDoc, obj: BaseModel, strict: bool) -> list[Problem]:
    """A problem for every text that lacks zh or en: an error under --strict, else a warning."""
    severity = "error" if strict else "warning"
    found: list[Problem] = []

    def walk(value: Any, loc: tuple) -> None:
        if isinstance(value, (Text, TextList)):
            present = [lang for lang in LANGS if getattr(value, lang)]
            where = ".".join(map(str, loc))
            if not present and isinstance(value, Text):
                found.append(doc.problem(loc, f"empty text at {where}: give zh and en"))
            elif present:
                for lang in LANGS:
                    if lang not in present:
                        found.append(doc.problem(loc, f"missing '{lang}' text at {where}", severity))
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(getattr(value, name), loc + (name,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, loc + (i,))

    walk(obj, ())
    return found


def keyword_problems(doc: YamlDoc, question: Question, strict: bool) -> list[Problem]:
    """A problem for every keyword group that the question's own answer does not name, per language."""
    from quiz.content.keywords import normalize, own_language_covers

    severity = "error" if strict else "warning"
    found: list[Problem] = []
    answers = {lang: normalize(getattr(question.answer, lang) or "") for lang in LANGS}
    for i, group in enumerate(question.keywords):
        for lang in LANGS:
            if answers[lang] and not own_language_covers(answers[lang], group, lang):
                terms = group if isinstance(group, str) else " / ".join(getattr(group, lang))
                found.append(doc.problem(("keywords", i), f"keyword '{terms}' is not in the {lang} answer; "
                                         f"add the synonym the answer uses, or drop the keyword", severity))
    return found


def _load_modules(bank: Bank, path: Path, strict: bool, cache: ParseCache) -> None:
    parsed, problems = _cached(path, ModulesFile, "modules", strict, cache)
    problems = list(problems)
    if parsed is not None:
        for i, module in enumerate(parsed.modules):
            if module.id in bank.modules:
                problems.append(crossref.at(path, ("modules", i, "id"), f"duplicate module id '{module.id}'"))
                continue
            bank.modules[module.id] = module
    bank.problems.extend(problems)


def _load_question(bank: Bank, path: Path, strict: bool, is_builtin: bool, cache: ParseCache) -> None:
    question, problems = _cached(path, Question, "question", strict, cache)
    bank.problems.extend(problems)
    if question is None or any(p.is_error for p in problems):
        return
    if question.id in bank.questions:
        other = bank.question_paths[question.id]
        bank.problems.append(crossref.at(path, ("id",), f"duplicate question id '{question.id}' (first defined in {other})"))
        return
    if is_builtin and question.number is None:
        bank.problems.append(crossref.at(path, ("id",), "built-in questions need a syllabus 'number'"))
    if is_builtin:
        for i, keyword in enumerate(question.keywords):
            if isinstance(keyword, str):
                bank.problems.append(crossref.at(path, ("keywords", i), f"plain keyword '{keyword}': built-in keywords "
                                                 "are groups {en: [...], zh: [...]}", "error" if strict else "warning"))
    bank.questions[question.id] = question
    bank.question_paths[question.id] = path


def _cached(path: Path, model: type[BaseModel], kind: str, strict: bool, cache: ParseCache) -> tuple[Any, list[Problem]]:
    """Parse and validate `path`, or take the validated data from the cache when the file is unchanged."""
    hit = cache.get(path, kind, strict)
    if hit is not None:
        data, problems = hit
        return (construct(model, data) if data is not None else None), problems
    from quiz.content.yamlsafe import read_yaml

    doc, problems = read_yaml(path)
    obj = None
    if doc is not None:
        obj, problems = _validate(doc, model, strict)
    cache.put(path, kind, strict, (obj.model_dump() if obj is not None else None, problems))
    return obj, problems


def _load_exercise(bank: Bank, folder: Path, strict: bool, cache: ParseCache) -> None:
    exercise, problems = _cached(folder / EXERCISE_FILE, Exercise, "exercise", strict, cache)
    bank.problems.extend(problems)
    if exercise is None or any(p.is_error for p in problems):
        return
    missing = [name for name in ("starter.py", "solution.py") if not (folder / name).is_file()]
    if missing:
        bank.problems.append(crossref.at(folder / EXERCISE_FILE, ("id",), f"exercise folder lacks {' and '.join(missing)}"))
        return
    if exercise.id in bank.exercises:
        other = bank.exercise_dirs[exercise.id] / EXERCISE_FILE
        bank.problems.append(crossref.at(folder / EXERCISE_FILE, ("id",), f"duplicate exercise id '{exercise.id}' (first defined in {other})"))
        return
    bank.exercises[exercise.id] = exercise
    bank.exercise_dirs[exercise.id] = folder
