"""A problem found in content: `path:line:col: severity: message`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    col: int
    message: str
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        from quiz.textsafe import printable

        return printable(f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}")

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
        }

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def problem_at(path: Path | str, mark, message: str, severity: str = "error") -> Problem:
    """A problem at a yaml Mark (0-based) or at the top of the file when there is none."""
    if mark is None:
        return Problem(str(path), 1, 1, message, severity)
    return Problem(str(path), mark.line + 1, mark.column + 1, message, severity)
