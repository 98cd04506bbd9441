"""Read a source file only when it is a regular file of sane size, without blocking on FIFOs or devices."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from quiz.grader.say import say

MAX_SOURCE_BYTES = 1024 * 1024


class SourceError(OSError):
    """The path is not a readable, regular, reasonably small UTF-8 file."""


def read_source(path: Path | str, limit: int = MAX_SOURCE_BYTES) -> str:
    try:
        fd = os.open(str(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise SourceError(
            say(f"cannot open {path}: {exc.strerror or exc}", f"无法打开 {path}：{exc.strerror or exc}")
        ) from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(say(f"{path} is not a regular file", f"{path} 不是普通文件"))
        if info.st_size > limit:
            raise SourceError(
                say(
                    f"{path} is {info.st_size} bytes; at most {limit} are read",
                    f"{path} 有 {info.st_size} 字节；最多只读取 {limit} 字节",
                )
            )
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise SourceError(
                say(f"{path} grew past {limit} bytes while being read", f"{path} 在读取过程中增长到超过 {limit} 字节")
            )
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(
            say(f"{path} is not UTF-8 text (byte {exc.start})", f"{path} 不是 UTF-8 文本（第 {exc.start} 字节）")
        ) from exc
