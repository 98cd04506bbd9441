"""Read a content file only when it is a regular file of bounded size, never blocking on FIFOs or devices."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class RefusedFile(Exception):
    """The path cannot be read as a content file; the message says why."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _check(mode: int, size: int, limit: int) -> None:
    if not stat.S_ISREG(mode):
        raise RefusedFile(f"is {_kind(mode)}; content files must be regular files")
    if size > limit:
        raise RefusedFile(f"file is {size / 1_000_000:.1f} MB; a content file may be at most {limit / 1_000_000:g} MB")


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of `path`; raises RefusedFile for anything but a regular file of at most `limit` bytes.

    The file type is checked before opening (so a device is never opened) and again on the open
    descriptor (so a swap in between is caught); the open never blocks, and at most `limit + 1`
    bytes are read, so a file that grows after the check is refused too.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise RefusedFile(f"cannot read file: {exc.strerror or exc}") from None
    _check(st.st_mode, st.st_size, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RefusedFile(f"cannot read file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        _check(st.st_mode, st.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise RefusedFile(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise RefusedFile(f"file grew past {limit / 1_000_000:g} MB while it was read")
    return b"".join(chunks)
