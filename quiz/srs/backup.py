"""Daily backup copies of the progress database, made with SQLite's online backup API."""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path

from quiz.srs.store import Store

log = logging.getLogger(__name__)
KEEP = 7


def daily_backup(store: Store, folder: Path, today: datetime, keep: int = KEEP) -> Path | None:
    """Copy the database once per day into `folder`; keep the newest `keep` copies."""
    target = folder / f"progress-{today:%Y-%m-%d}.sqlite3"
    if target.exists():
        return None
    try:
        store.backup(target)
    except Exception as exc:  # noqa: BLE001 - a failed backup must never stop a review
        log.warning("daily backup to %s failed: %s", target, exc)
        return None
    for old in sorted(folder.glob("progress-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    return target
