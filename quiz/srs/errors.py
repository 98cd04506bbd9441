"""What went wrong with the progress database, in words: the path, the problem, and what to do."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

# primary SQLite result codes (the low byte of an extended code)
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says where it is and what to do.

    `kind` is one of: damaged, readonly, full, locked, newer, not_a_folder, unavailable.
    """

    def __init__(self, message: str, kind: str = "unavailable"):
        super().__init__(message)
        self.kind = kind


def damaged(path: Path, detail: str) -> StoreError:
    return StoreError(
        f"{path} is damaged ({detail}). It was left untouched. Move or rename it (your progress is in it, "
        f"or in the backups/ folder beside it), then start again to create a fresh one.",
        "damaged",
    )


def not_a_database(path: Path, detail: str) -> StoreError:
    return StoreError(
        f"{path} is not a readable progress database ({detail}). It was left untouched. "
        f"Move or rename it (your progress is in it, or in the backups/ folder beside it), "
        f"then start again to create a fresh one.",
        "damaged",
    )


def read_only(path: Path, detail: str) -> StoreError:
    return StoreError(
        f"{path} cannot be written: the file or its folder is read-only ({detail}). Nothing was changed and "
        f"nothing saved before is lost. Make the file and its folder writable (or set QUIZ_HOME to a writable "
        f"folder), then try again.",
        "readonly",
    )


def disk_full(path: Path, detail: str) -> StoreError:
    return StoreError(
        f"the disk holding {path} is full ({detail}); the last change was not saved, everything saved before "
        f"is kept. Free some space on that disk, then try again.",
        "full",
    )


def locked(path: Path, timeout_s: float) -> StoreError:
    return StoreError(
        f"{path} is locked by another program (another quiz window or command?) and stayed locked for more "
        f"than {timeout_s:g} s; the last change was not saved, everything saved before is kept. Close the "
        f"other program or wait for it to finish, then try again.",
        "locked",
    )


def not_a_folder(folder: Path) -> StoreError:
    return StoreError(
        f"{folder} is a file, not a folder, so the progress database cannot be kept in it. Point QUIZ_HOME at "
        f"a folder (or move that file away), then try again.",
        "not_a_folder",
    )


def _read_only_folder(path: Path) -> bool:
    """Whether the folder of `path` is on a read-only mount (where SQLite cannot make its -wal and -shm files)."""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _no_space(path: Path) -> bool:
    """Whether the disk holding `path` is (all but) full: SQLite reports some full-disk writes as I/O errors."""
    try:
        st = os.statvfs(path.parent)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 256 * 1024


def explain(exc: BaseException, path: Path, busy_timeout_s: float = 5.0) -> StoreError:
    """The StoreError for any exception raised while using the database at `path`."""
    if isinstance(exc, StoreError):
        return exc
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, sqlite3.Error):
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        if code in (_BUSY, _LOCKED) or "locked" in detail or "busy" in detail:
            return locked(path, busy_timeout_s)
        if code == _READONLY or "readonly" in detail:
            return read_only(path, detail)
        if code == _FULL or "disk is full" in detail:
            return disk_full(path, detail)
        if code == _NOTADB:
            return not_a_database(path, detail)
        if code == _CANTOPEN and _read_only_folder(path):
            return read_only(path, detail)
        if code == _CANTOPEN:
            return StoreError(
                f"cannot open {path} ({detail}). It was left untouched. Check that the folder "
                f"exists and that you may read and write it, then try again.",
                "unavailable",
            )
        if code == _IOERR and _no_space(path):
            return disk_full(path, detail)
        if code == _IOERR:
            return StoreError(
                f"{path} could not be read or written ({detail}); the last change was not saved. "
                f"Check the disk, then try again.",
                "unavailable",
            )
        return damaged(path, detail)
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC:
            return disk_full(path, detail)
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return read_only(path, detail)
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            return StoreError(
                f"{path} cannot be written: a file stands where a folder of its path should be "
                f"({detail}). Move that file away or choose another place, then try again.",
                "not_a_folder",
            )
        return StoreError(f"cannot use {path} ({detail}). Nothing was changed.", "unavailable")
    # a row that cannot be read back (bad JSON, a bad date): the file holds data this app did not write
    return damaged(path, f"unreadable data: {detail}")
