"""A card's scheduling state as stored, with explicit to_dict/from_dict."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime

from quiz.srs.clock import iso

NEW, LEARNING, REVIEW, RELEARNING = 0, 1, 2, 3
STATE_NAMES = {NEW: "new", LEARNING: "learning", REVIEW: "review", RELEARNING: "relearning"}
LEECH_LAPSES = 8


@dataclass(frozen=True)
class CardState:
    card_id: str
    state: int = NEW
    step: int | None = None
    stability: float | None = None
    difficulty: float | None = None
    due: datetime | None = None
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0
    suspended: bool = False
    buried_until: datetime | None = None
    leech: bool = False

    @property
    def is_new(self) -> bool:
        return self.state == NEW

    def to_dict(self) -> dict:
        d = asdict(self)
        for key in ("due", "last_review", "buried_until"):
            d[key] = iso(d[key])
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "CardState":
        d = dict(d)
        for key in ("due", "last_review", "buried_until"):
            d[key] = datetime.fromisoformat(d[key]) if d.get(key) else None
        d["suspended"] = bool(d.get("suspended"))
        d["leech"] = bool(d.get("leech"))
        return cls(**d)

    def with_(self, **changes) -> "CardState":
        return replace(self, **changes)
