"""The card browser's data: every card with its text and schedule, and a search over them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quiz.content.bank import Bank
from quiz.session.cards import card_view, content_cards, parse_card_id
from quiz.srs.cardstate import STATE_NAMES, CardState
from quiz.srs.store import Store

STATES = ("new", "learning", "review", "relearning", "suspended", "buried", "leech")


@dataclass(frozen=True)
class CardRow:
    card_id: str
    module: str
    front: str
    back: str
    tags: tuple[str, ...]
    state: CardState

    def status(self, now: datetime) -> list[str]:
        """The state name, then any of suspended, buried, leech."""
        s = self.state
        out = [STATE_NAMES[s.state]]
        if s.suspended:
            out.append("suspended")
        if s.buried_until is not None and s.buried_until > now:
            out.append("buried")
        if s.leech:
            out.append("leech")
        return out


@dataclass(frozen=True)
class Query:
    text: str = ""
    module: str | None = None
    state: str | None = None
    tag: str | None = None


def parse_query(raw: str) -> Query:
    """`module:alpha state:suspended tag:autograd words...`; words match the card's text and id."""
    fields: dict[str, str] = {}
    words = []
    for token in raw.split():
        key, sep, value = token.partition(":")
        if sep and key in ("module", "state", "tag") and value:
            fields[key] = value.lower()
        else:
            words.append(token)
    return Query(" ".join(words), fields.get("module"), fields.get("state"), fields.get("tag"))


def card_rows(bank: Bank, store: Store, lang: str) -> list[CardRow]:
    """Every card of the content, in syllabus order, with its stored state."""
    states = store.cards()
    rows = []
    for card_id, module in content_cards(bank):
        view = card_view(bank, card_id, lang)
        if view is None:
            continue
        q = bank.questions[parse_card_id(card_id)[0]]
        rows.append(
            CardRow(
                card_id,
                module,
                view.front,
                view.back,
                tuple(t.lower() for t in q.tags),
                states.get(card_id, CardState(card_id)),
            )
        )
    return rows


def search(rows: list[CardRow], query: Query, now: datetime) -> list[CardRow]:
    text = query.text.lower()
    out = []
    for row in rows:
        if query.module and row.module.lower() != query.module:
            continue
        if query.tag and query.tag not in row.tags:
            continue
        if query.state and query.state not in row.status(now):
            continue
        if text and text not in f"{row.card_id}\n{row.front}\n{row.back}".lower():
            continue
        out.append(row)
    return out
