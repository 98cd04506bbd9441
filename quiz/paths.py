"""Where the app keeps its data, config and built-in content (platformdirs; QUIZ_HOME overrides)."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "ai-infra-quiz"


def quiz_home() -> Path | None:
    """The QUIZ_HOME override, when set: it holds the data, the config and the workspace."""
    value = os.environ.get("QUIZ_HOME")
    return Path(value).expanduser() if value else None


def home_problem() -> str | None:
    """Why QUIZ_HOME cannot be used (it, or a folder above it, is a file), or None."""
    home = quiz_home()
    if home is None:
        return None
    for folder in [home, *home.parents]:
        try:
            if folder.exists():
                if folder.is_dir():
                    return None
                return (
                    f"QUIZ_HOME is {home}, but {folder} is a file, not a folder; the progress database, "
                    f"settings and workspace live in that folder. Point QUIZ_HOME at a folder (or move the file away)."
                )
        except OSError as exc:
            return f"QUIZ_HOME is {home}, which cannot be used: {exc.strerror or exc}"
    return None


def data_dir() -> Path:
    """The directory of the progress database and backups (not created here)."""
    home = quiz_home()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    home = quiz_home()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def config_file() -> Path:
    return config_dir() / "config.toml"


def database_file() -> Path:
    return data_dir() / "progress.sqlite3"


def workspace_dir() -> Path:
    """Where learners edit their copies of exercise starters."""
    return data_dir() / "workspace"


def builtin_content_dir() -> Path:
    """The shipped question bank: `content/` in a checkout, `quiz/_content` in a wheel."""
    package = Path(__file__).resolve().parent
    shipped = package / "_content"
    if shipped.is_dir():
        return shipped
    return package.parent / "content"


def extra_content_dirs() -> list[Path]:
    """User packs named by QUIZ_CONTENT_PATH (os.pathsep-separated)."""
    value = os.environ.get("QUIZ_CONTENT_PATH", "")
    return [Path(p).expanduser() for p in value.split(os.pathsep) if p.strip()]


def cache_dir() -> Path:
    """Rebuildable data (the parsed-content cache); safe to delete at any time."""
    home = quiz_home()
    if home is not None:
        return home / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))
