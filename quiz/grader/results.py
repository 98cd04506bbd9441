"""The results contract (version 1): what a grade returns, as plain data."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

RESULTS_VERSION = 1
PASS, FAIL, ERROR, TIMEOUT = "pass", "fail", "error", "timeout"


@dataclass
class TestResult:
    name: str
    status: str
    message: str = ""
    output: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Result:
    exercise: str
    status: str
    message: str = ""
    duration_ms: int = 0
    tests: list[TestResult] = field(default_factory=list)
    version: int = RESULTS_VERSION

    @property
    def passed(self) -> int:
        return sum(t.status == PASS for t in self.tests)

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "exercise": self.exercise,
            "status": self.status,
            "message": self.message,
            "duration_ms": self.duration_ms,
            "tests": [t.to_dict() for t in self.tests],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Result":
        return cls(
            exercise=data["exercise"],
            status=data["status"],
            message=data.get("message", ""),
            duration_ms=int(data.get("duration_ms", 0)),
            tests=[TestResult(**t) for t in data.get("tests", [])],
            version=int(data.get("version", RESULTS_VERSION)),
        )


def overall(exercise: str, tests: list[TestResult], duration_ms: int) -> Result:
    """The exercise's status from its tests: timeout beats error beats fail; pass only if all pass."""
    statuses = {t.status for t in tests}
    if not tests:
        status, message = ERROR, "no checks ran"
    elif TIMEOUT in statuses:
        status, message = TIMEOUT, "a check ran past the time limit"
    elif ERROR in statuses:
        status, message = ERROR, next(t.message for t in tests if t.status == ERROR)
    elif FAIL in statuses:
        failed = sum(t.status == FAIL for t in tests)
        status, message = FAIL, f"{failed} of {len(tests)} checks failed"
    else:
        status, message = PASS, f"all {len(tests)} checks passed"
    return Result(exercise=exercise, status=status, message=message, duration_ms=duration_ms, tests=tests)
