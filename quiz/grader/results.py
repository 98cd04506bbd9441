"""The results contract (version 1): what a grade returns, as plain data."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from quiz.grader.say import say

RESULTS_VERSION = 1
PASS, FAIL, ERROR, TIMEOUT = "pass", "fail", "error", "timeout"
STATUSES = (PASS, FAIL, ERROR, TIMEOUT)


def safe_text(value: object, limit: int = 20_000) -> str:
    """Learner text as valid UTF-8: lone surrogates and undecodable bytes become U+FFFD."""
    text = value if isinstance(value, str) else str(value)
    return text[:limit].encode("utf-8", "replace").decode("utf-8", "replace")


@dataclass
class TestResult:
    name: str
    status: str
    message: str = ""
    output: str = ""

    def to_dict(self) -> dict:
        return {k: safe_text(v) for k, v in asdict(self).items()}


@dataclass
class Result:
    exercise: str
    status: str
    message: str = ""
    duration_ms: int = 0
    tests: list[TestResult] = field(default_factory=list)
    version: int = RESULTS_VERSION
    protections: list[str] = field(default_factory=list)  # the fences the check's process ran under

    @property
    def passed(self) -> int:
        return sum(t.status == PASS for t in self.tests)

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "exercise": safe_text(self.exercise),
            "status": self.status,
            "message": safe_text(self.message),
            "duration_ms": self.duration_ms,
            "tests": [t.to_dict() for t in self.tests],
            "protections": [safe_text(p) for p in self.protections],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Result":
        """Strict: a reply that is not exactly a results object raises ValueError."""
        if not isinstance(data, dict) or data.get("status") not in STATUSES or not isinstance(data.get("tests"), list):
            raise ValueError("not a results object")
        tests = []
        for t in data["tests"]:
            if (
                not isinstance(t, dict)
                or set(t) != {"name", "status", "message", "output"}
                or t["status"] not in STATUSES
            ):
                raise ValueError("not a test result")
            tests.append(TestResult(**{k: safe_text(v) for k, v in t.items()}))
        return cls(
            exercise=safe_text(data["exercise"]),
            status=data["status"],
            message=safe_text(data.get("message", "")),
            duration_ms=int(data.get("duration_ms", 0)),
            tests=tests,
            version=int(data.get("version", RESULTS_VERSION)),
            protections=[safe_text(p) for p in data.get("protections", [])],
        )


def overall(exercise: str, tests: list[TestResult], duration_ms: int) -> Result:
    """The exercise's status from its tests: timeout beats error beats fail; pass only if all pass."""
    statuses = {t.status for t in tests}
    if not tests:
        status, message = ERROR, say("no checks ran", "没有运行任何检查")
    elif TIMEOUT in statuses:
        status, message = TIMEOUT, say("a check ran past the time limit", "有检查超出了时限")
    elif ERROR in statuses:
        status, message = ERROR, next(t.message for t in tests if t.status == ERROR)
    elif FAIL in statuses:
        failed = sum(t.status == FAIL for t in tests)
        status, message = (
            FAIL,
            say(f"{failed} of {len(tests)} checks failed", f"{len(tests)} 项检查中有 {failed} 项未通过"),
        )
    else:
        status, message = PASS, say(f"all {len(tests)} checks passed", f"全部 {len(tests)} 项检查通过")
    return Result(exercise=exercise, status=status, message=message, duration_ms=duration_ms, tests=tests)
