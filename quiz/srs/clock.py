"""An injectable clock: the app reads time through it, tests fix it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo


class Clock:
    """UTC now, and the local zone used for day boundaries."""

    def __init__(self, tz: tzinfo | None = None):
        self._tz = tz

    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    @property
    def tz(self) -> tzinfo:
        return self._tz or datetime.now().astimezone().tzinfo or timezone.utc


class FixedClock(Clock):
    """A clock that stands still until moved; for tests and benchmarks."""

    def __init__(self, at: datetime, tz: tzinfo | None = timezone.utc):
        super().__init__(tz)
        if at.tzinfo is None:
            raise ValueError("FixedClock needs an aware datetime")
        self.at = at.astimezone(timezone.utc)

    def now(self) -> datetime:
        return self.at

    def advance(self, **kwargs) -> None:
        self.at += timedelta(**kwargs)


def day_bounds(now: datetime, tz: tzinfo, day_start_hour: int) -> tuple[datetime, datetime]:
    """The [start, end) of the study day containing `now`, in UTC; a day starts at day_start_hour local."""
    local = now.astimezone(tz)
    start = local.replace(hour=day_start_hour, minute=0, second=0, microsecond=0)
    if local < start:
        start -= timedelta(days=1)
    end = start + timedelta(days=1)
    return start.astimezone(timezone.utc), end.astimezone(timezone.utc)


def iso(value: datetime | None) -> str | None:
    """UTC ISO-8601 with microseconds, so stored timestamps sort as text."""
    if value is None:
        return None
    return value.astimezone(timezone.utc).isoformat(timespec="microseconds")
