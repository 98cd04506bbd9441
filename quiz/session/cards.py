"""Card ids from the bank (`q/<question>` and `q/<question>/<card>`) and what each card shows."""

from __future__ import annotations

from dataclasses import dataclass

from quiz.content.bank import Bank


def question_card_id(question_id: str) -> str:
    return f"q/{question_id}"


def flashcard_id(question_id: str, card_id: str) -> str:
    return f"q/{question_id}/{card_id}"


def parse_card_id(card_id: str) -> tuple[str, str | None]:
    """(question id, flashcard id or None)."""
    parts = card_id.split("/")
    if len(parts) < 2 or parts[0] != "q":
        raise ValueError(f"not a card id: {card_id!r}")
    return parts[1], (parts[2] if len(parts) > 2 else None)


def content_cards(bank: Bank, modules: list[str] | None = None) -> list[tuple[str, str]]:
    """(card id, module id) for every card, in syllabus order: each question, then its flashcards."""
    out: list[tuple[str, str]] = []
    for q in bank.ordered_questions():
        if modules and q.module not in modules:
            continue
        out.append((question_card_id(q.id), q.module))
        out.extend((flashcard_id(q.id, c.id), q.module) for c in q.cards)
    return out


@dataclass(frozen=True)
class CardView:
    card_id: str
    question_id: str
    module: str
    front: str
    back: str  # Markdown
    kind: str  # "question" or "flashcard"


def card_view(bank: Bank, card_id: str, lang: str) -> CardView | None:
    """What a card shows; None when its question or flashcard is no longer in the content."""
    question_id, flash = parse_card_id(card_id)
    q = bank.questions.get(question_id)
    if q is None:
        return None
    if flash is None:
        points = q.key_points.get(lang)
        back = "\n".join(f"- {p}" for p in points) if points else q.answer.get(lang)
        return CardView(card_id, q.id, q.module, q.question.get(lang), back, "question")
    card = next((c for c in q.cards if c.id == flash), None)
    if card is None:
        return None
    return CardView(card_id, q.id, q.module, card.front.get(lang), card.back.get(lang), "flashcard")
