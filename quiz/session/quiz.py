"""Quiz sessions: which items to ask, keyword coverage of a typed answer, and the end-of-session summary."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from quiz.content.bank import Bank
from quiz.content.models import Choice
from quiz.session.cards import question_card_id


@dataclass(frozen=True)
class QuizItem:
    kind: str  # "question" or "choice"
    question_id: str
    choice_id: str | None = None


@dataclass
class QuizOutcome:
    item: QuizItem
    correct: bool
    rating: int | None = None
    seconds: float = 0.0


def weakest_questions(bank: Bank, store, modules: list[str] | None) -> list[str]:
    """Questions ordered from weakest: most lapses, then lowest stability; unseen ones after seen ones."""
    states = store.cards() if store is not None else {}
    scored = []
    for q in bank.ordered_questions():
        if modules and q.module not in modules:
            continue
        s = states.get(question_card_id(q.id))
        if s is None or s.is_new:
            scored.append((1, 0, 0.0, q.id))
        else:
            scored.append((0, -s.lapses, s.stability or 0.0, q.id))
    return [qid for *_, qid in sorted(scored)]


def build_items(
    bank: Bank,
    modules: list[str] | None,
    count: int,
    store=None,
    weakest: bool = False,
    mock: bool = False,
    seed: int | None = None,
) -> list[QuizItem]:
    """Up to `count` items: questions (mock interviews ask questions only) mixed with multiple-choice items."""
    rng = random.Random(seed)
    if weakest:
        pool = weakest_questions(bank, store, modules)[: max(count, 1)]
    else:
        pool = [q.id for q in bank.ordered_questions() if not modules or q.module in modules]
        rng.shuffle(pool)
    items: list[QuizItem] = []
    for qid in pool:
        q = bank.questions[qid]
        if mock or not q.choices or rng.random() < 0.5:
            items.append(QuizItem("question", qid))
        else:
            items.append(QuizItem("choice", qid, rng.choice(q.choices).id))
        if len(items) >= count:
            break
    return items


def choice_correct(choice: Choice, picked: set[int]) -> bool:
    """Right only when the picked options are exactly the correct ones (all of them, for select-all items)."""
    return picked == {i for i, option in enumerate(choice.options) if option.correct}


def keyword_coverage(answer: str, groups: list, lang: str) -> tuple[list, list]:
    """(covered, missing) keyword groups: a group counts when any synonym appears, ignoring case and width."""
    from quiz.content.keywords import coverage

    return coverage(answer, groups, lang)


@dataclass
class QuizSummary:
    outcomes: list[QuizOutcome] = field(default_factory=list)

    @property
    def correct(self) -> int:
        return sum(o.correct for o in self.outcomes)

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes)

    def weakest(self, limit: int = 5) -> list[str]:
        wrong = [o for o in self.outcomes if not o.correct]
        wrong.sort(key=lambda o: o.rating or 0)
        seen: list[str] = []
        for o in wrong:
            if o.item.question_id not in seen:
                seen.append(o.item.question_id)
        return seen[:limit]

    def to_dict(self) -> dict:
        return {
            "items": len(self.outcomes),
            "correct": self.correct,
            "seconds": round(self.seconds, 1),
            "weakest": self.weakest(),
            "outcomes": [
                {
                    "kind": o.item.kind,
                    "question": o.item.question_id,
                    "choice": o.item.choice_id,
                    "correct": o.correct,
                    "rating": o.rating,
                    "seconds": round(o.seconds, 1),
                }
                for o in self.outcomes
            ],
        }
