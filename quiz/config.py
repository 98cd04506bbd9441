"""User settings as one typed object, read from and written to a TOML file in the config dir."""

from __future__ import annotations

import locale
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

log = logging.getLogger(__name__)


LIMITS = {  # key -> (lowest, highest) accepted; a value outside is clamped, with a warning
    "desired_retention": (0.7, 0.99),
    "new_per_day": (0, 9999),
    "reviews_per_day": (0, 99999),
    "day_start_hour": (0, 23),
}
_WARNED: set[str] = set()


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
    fsrs_parameters: list[float] = field(default_factory=list)  # fitted by `quiz optimize`; empty: the defaults
    # what was wrong in the file, one line per key (not saved)
    problems: list[str] = field(default_factory=list, compare=False, repr=False)

    def to_dict(self) -> dict:
        data = asdict(self)
        del data["problems"]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        """Every value is checked; a bad one is named in `problems` and its default (or a clamped value) used."""
        base = cls()
        known = {f.name for f in fields(cls)} - {"problems"}
        for key, value in data.items():
            if key not in known:
                base.problems.append(f"unknown setting '{key}' ignored")
                continue
            default = getattr(base, key)
            if key == "keys":
                setattr(base, key, _keys(value, base.problems))
                continue
            given = value
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if key == "fsrs_parameters" and isinstance(value, list):
                value = [float(v) for v in value if isinstance(v, (int, float)) and not isinstance(v, bool)]
                if len(value) != len(given):
                    base.problems.append("'fsrs_parameters' should be a list of numbers; using the defaults")
                    continue
            if type(value) is not type(default):
                base.problems.append(f"'{key}' should be {_kind(default)}, not {value!r}; using {default!r}")
                continue
            if isinstance(value, float) and value != value:  # NaN
                base.problems.append(f"'{key}' is not a number; using {default!r}")
                continue
            if key == "lang" and value not in ("zh", "en"):
                base.problems.append(f'\'lang\' should be "zh" or "en", not {value!r}; using {default!r}')
                continue
            if key in LIMITS:
                low, high = LIMITS[key]
                clamped = min(high, max(low, value))
                if clamped != value:
                    base.problems.append(f"'{key}' = {given!r} is outside {low}..{high}; using {clamped!r}")
                    value = clamped
            setattr(base, key, value)
        return base

    def clamped(self) -> "Settings":
        """The same settings with every value in its accepted range (what the form saves and shows)."""
        checked = Settings.from_dict(self.to_dict())
        for key, value in checked.to_dict().items():
            setattr(self, key, value)
        return self


def _kind(default: object) -> str:
    return {
        bool: "true or false",
        int: "a whole number",
        float: "a number",
        str: "a string",
        dict: "a table",
        list: "a list of numbers",
    }[type(default)]


def _keys(value: object, problems: list[str]) -> dict[str, str]:
    """The [keys] table: binding id -> key names such as "ctrl+r" or "j,down"; bad entries are dropped."""
    if not isinstance(value, dict):
        problems.append(f"'keys' should be a table of binding id = \"key\", not {value!r}; ignored")
        return {}
    good: dict[str, str] = {}
    for binding, keys in value.items():
        parts = keys.split(",") if isinstance(keys, str) else []
        if not parts or any(not p.strip() or any(ch.isspace() for ch in p.strip()) for p in parts):
            problems.append(f"keys: '{binding}' should be a key name such as \"ctrl+r\", not {keys!r}; ignored")
            continue
        good[str(binding)] = ",".join(p.strip() for p in parts)
    return good


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
    """Settings from the config file; a missing or broken file gives defaults, a bad value its default.

    Each problem is logged once per process, naming the key; `Settings.problems` lists them for the app.
    """
    from quiz import paths

    path = path or paths.config_file()
    data: dict = {}
    problems: list[str] = []
    text = _read(path, problems)
    if text is not None:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"cannot read {path} ({exc}); using the defaults")
    if "lang" not in data:
        data["lang"] = default_lang()
    settings = Settings.from_dict(data)
    settings.problems[:0] = problems
    if settings.lang != data["lang"]:  # not zh or en: the language of the locale instead
        settings.lang = default_lang()
    for problem in settings.problems:
        line = f"config {path}: {problem}"
        if line not in _WARNED:
            _WARNED.add(line)
            log.warning("%s", line)
    return settings


def _read(path: Path, problems: list[str]) -> str | None:
    try:
        if not path.is_file():
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"cannot read {path} ({exc}); using the defaults")
        return None


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write atomically, keeping the file's comments, layout and unknown keys; only changed values are set."""
    from quiz import paths
    from quiz.configfile import updated_toml

    path = path or paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        old = ""
    values = settings.clamped().to_dict()
    try:
        text = updated_toml(old, values)
    except ValueError as exc:  # the old file is not TOML: keep it beside the new one rather than lose it
        kept = path.with_suffix(".toml.bad")
        kept.write_text(old, encoding="utf-8")
        log.warning("config: %s could not be parsed (%s); it was kept as %s", path, exc, kept)
        text = updated_toml("", values)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
