"""User settings as one typed object, read from and written to a TOML file in the config dir."""

from __future__ import annotations

import locale
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass
class Settings:
    lang: str = "en"
    desired_retention: float = 0.9
    new_per_day: int = 20
    reviews_per_day: int = 200
    day_start_hour: int = 4
    interleave_modules: bool = False
    bury_siblings: bool = True  # a question's other cards wait until tomorrow once one of them is rated
    editor: str = ""
    theme: str = "textual-dark"
    keys: dict[str, str] = field(default_factory=dict)  # binding id -> key(s), to remap bindings

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        """Known keys with the right type are taken; anything else is logged and ignored."""
        base = cls()
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                log.warning("config: unknown setting %r ignored", key)
                continue
            default = getattr(base, key)
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if type(value) is not type(default):
                log.warning("config: %s should be %s, got %r; using %r", key, type(default).__name__, value, default)
                continue
            setattr(base, key, value)
        return base.clamped()

    def clamped(self) -> "Settings":
        if self.lang not in ("zh", "en"):
            self.lang = "en"
        self.desired_retention = min(0.99, max(0.7, self.desired_retention))
        self.new_per_day = max(0, self.new_per_day)
        self.reviews_per_day = max(0, self.reviews_per_day)
        self.day_start_hour = min(23, max(0, self.day_start_hour))
        return self


def default_lang() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def load_settings(path: Path | None = None) -> Settings:
    """Settings from the config file; a missing or broken file gives defaults (and a log line)."""
    from quiz import paths

    path = path or paths.config_file()
    data: dict = {}
    if path.is_file():
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            log.warning("config: cannot read %s (%s); using defaults", path, exc)
            data = {}
    if "lang" not in data:
        data["lang"] = default_lang()
    return Settings.from_dict(data)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write atomically: a crash mid-write leaves the old file intact."""
    import tomli_w

    from quiz import paths

    path = path or paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomli_w.dumps(settings.clamped().to_dict()), encoding="utf-8")
    os.replace(tmp, path)
    return path
