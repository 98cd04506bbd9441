"""The loaded question bank: modules, questions and exercises by id, plus what was skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from quiz.content.models import Exercise, Module, Question
from quiz.content.problems import Problem


@dataclass
class Bank:
    modules: dict[str, Module] = field(default_factory=dict)
    questions: dict[str, Question] = field(default_factory=dict)
    exercises: dict[str, Exercise] = field(default_factory=dict)
    question_paths: dict[str, Path] = field(default_factory=dict)
    exercise_dirs: dict[str, Path] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    def ordered_questions(self, module: str | None = None) -> list[Question]:
        """Questions in syllabus order (module number, then question number, then id)."""
        def key(q: Question) -> tuple:
            mod = self.modules.get(q.module)
            return (mod.number if mod else 10_000, q.number or 10_000, q.id)

        items = [q for q in self.questions.values() if module is None or q.module == module]
        return sorted(items, key=key)

    def ordered_modules(self) -> list[Module]:
        return sorted(self.modules.values(), key=lambda m: (m.number, m.id))

    def populated_modules(self) -> list[Module]:
        """Modules that hold at least one question or exercise, in order."""
        used = {q.module for q in self.questions.values()} | {e.module for e in self.exercises.values()}
        return [m for m in self.ordered_modules() if m.id in used]

    def exercises_for(self, question_id: str) -> list[Exercise]:
        q = self.questions.get(question_id)
        linked = list(q.exercises) if q else []
        linked += [e.id for e in self.exercises.values() if question_id in e.questions and e.id not in linked]
        return [self.exercises[i] for i in linked if i in self.exercises]
