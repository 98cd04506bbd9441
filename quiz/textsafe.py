"""Terminal-safe text: control characters (C0 but newline and tab, DEL, C1) shown as visible escapes."""

from __future__ import annotations

import re

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}"


def printable(text: object) -> str:
    """`text` with every control character but newline and tab written as `\\xNN`, so a terminal never acts on it."""
    return CONTROL.sub(_escape, str(text))
