"""A cache of parsed and validated content files, keyed by path, size and mtime (like .pyc files).

Stored as JSON, never pickle: reading a cache someone else wrote can at worst give wrong data for
a file (which its size and mtime then no longer match), never run code."""

from __future__ import annotations

import logging
import os
import json
from pathlib import Path
from typing import Any

from quiz import __version__

log = logging.getLogger(__name__)
CACHE_VERSION = 2


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
                self.entries = self._read(file)
            except Exception as exc:  # noqa: BLE001 - a broken cache is just rebuilt
                self.entries = {}
                log.info("ignoring unreadable content cache %s: %s", file, exc)

    def _read(self, file: Path) -> dict[tuple, tuple]:
        from quiz.content.problems import Problem

        with file.open("rb") as fh:
            stored = json.loads(fh.read(64 * 1024 * 1024))
        if not isinstance(stored, dict) or stored.get("signature") != json.loads(json.dumps(self.signature)):
            return {}
        entries = {}
        for path, kind, strict, stamp, data, problems in stored["entries"]:
            entries[(str(path), str(kind), bool(strict))] = (
                tuple(stamp), (data, [Problem(**p) for p in problems]))
        return entries

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
            rows = [[path, kind, strict, list(stamp), data, [p.to_dict() for p in problems]]
                    for (path, kind, strict), (stamp, (data, problems)) in self.entries.items()]
            with tmp.open("w", encoding="utf-8") as fh:
                json.dump({"signature": self.signature, "entries": rows}, fh, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, self.file)
            self.dirty = False
        except OSError as exc:
            log.info("cannot write the content cache %s: %s", self.file, exc)
