"""Read a source file only when it is a regular file of sane size, without blocking on FIFOs or devices."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_SOURCE_BYTES = 1024 * 1024


class SourceError(OSError):
    """The path is not a readable, regular, reasonably small UTF-8 file."""


def read_source(path: Path | str, limit: int = MAX_SOURCE_BYTES) -> str:
    try:
        fd = os.open(str(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise SourceError(f"cannot open {path}: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(f"{path} is not a regular file")
        if info.st_size > limit:
            raise SourceError(f"{path} is {info.st_size} bytes; at most {limit} are read")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise SourceError(f"{path} grew past {limit} bytes while being read")
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path} is not UTF-8 text (byte {exc.start})") from exc
