"""Run as a script by tests: rate cards in a loop, printing each committed log id (for crash tests)."""

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

path, prefix, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
store = Store.open(path)
scheduler = FsrsScheduler(fuzz=False)
now = datetime(2026, 3, 2, tzinfo=timezone.utc)
for i in range(count):
    card_id = f"q/{prefix}-{i}"
    before = store.card(card_id)
    out = scheduler.review(before, 3, now + timedelta(seconds=i))
    log_id = store.record_review(before, out.after, 3, now + timedelta(seconds=i), 100, 0.01)
    print(log_id, card_id, flush=True)
print("done", flush=True)
