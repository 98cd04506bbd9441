"""Wiring shared by the CLI and the app: settings, the store, the scheduler, the clock."""

from __future__ import annotations

from dataclasses import dataclass

from quiz import paths
from quiz.config import Settings, load_settings
from quiz.srs.clock import Clock
from quiz.srs.queue import Limits
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store


@dataclass
class Services:
    settings: Settings
    store: Store
    clock: Clock
    scheduler: FsrsScheduler

    @property
    def limits(self) -> Limits:
        s = self.settings
        return Limits(
            new_per_day=s.new_per_day,
            reviews_per_day=s.reviews_per_day,
            day_start_hour=s.day_start_hour,
            bury_siblings=s.bury_siblings,
        )

    def close(self) -> None:
        self.store.close()


def open_services(
    clock: Clock | None = None, settings: Settings | None = None, fuzz: bool = True, backup: bool = False
) -> Services:
    """Open the store (raises StoreError with a clear message) and everything around it."""
    settings = settings or load_settings()
    clock = clock or Clock()
    store = Store.open(paths.database_file())
    if backup:
        from quiz.srs.backup import daily_backup

        daily_backup(store, paths.data_dir() / "backups", clock.now().astimezone(clock.tz))
    scheduler = FsrsScheduler(settings.desired_retention, fuzz=fuzz, parameters=settings.fsrs_parameters)
    return Services(settings, store, clock, scheduler)
