"""A cache of parsed and validated content files, keyed by path, size and mtime (like .pyc files)."""

from __future__ import annotations

import logging
import os
import pickle
from pathlib import Path
from typing import Any

from quiz import __version__

log = logging.getLogger(__name__)
CACHE_VERSION = 1


def _code_signature() -> tuple:
    """Changing the loader or the models invalidates the cache, even without a version bump."""
    here = Path(__file__).parent
    return (CACHE_VERSION, __version__) + tuple(
        (p.name, p.stat().st_mtime_ns) for p in sorted(here.glob("*.py"))
    )


class ParseCache:
    def __init__(self, file: Path | None):
        self.file = file
        self.entries: dict[tuple, tuple] = {}
        self.dirty = False
        self.signature = _code_signature()
        if file is not None and file.is_file():
            try:
                with file.open("rb") as fh:
                    stored = pickle.load(fh)
                if stored.get("signature") == self.signature:
                    self.entries = stored["entries"]
            except Exception as exc:  # noqa: BLE001 - a broken cache is just rebuilt
                log.info("ignoring unreadable content cache %s: %s", file, exc)

    @staticmethod
    def _stamp(path: Path) -> tuple[int, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def get(self, path: Path, kind: str, strict: bool) -> Any:
        entry = self.entries.get((str(path), kind, strict))
        if entry is None or entry[0] != self._stamp(path):
            return None
        return entry[1]

    def put(self, path: Path, kind: str, strict: bool, value: Any) -> None:
        stamp = self._stamp(path)
        if stamp is not None:
            self.entries[(str(path), kind, strict)] = (stamp, value)
            self.dirty = True

    def save(self) -> None:
        if not self.dirty or self.file is None:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.file.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump({"signature": self.signature, "entries": self.entries}, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.file)
            self.dirty = False
        except OSError as exc:
            log.info("cannot write the content cache %s: %s", self.file, exc)
