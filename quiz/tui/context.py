"""What the app's screens share: the bank, the progress services, the language, the grader factory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from quiz.config import Settings
from quiz.content.bank import Bank


@dataclass
class AppContext:
    bank: Bank
    settings: Settings
    services: object | None  # quiz.services.Services, or None when the store could not be opened
    store_error: str | None = None
    grader_factory: Callable[[], object] | None = None

    @property
    def store(self):
        return self.services.store if self.services is not None else None
