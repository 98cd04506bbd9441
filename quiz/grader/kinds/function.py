"""Plain functions (simulations): the learner side runs the checks.py test function against a recorder
that notes, for every call of the entry, what it returned or raised, every call it made to a callback it
was given (a simulated network, an all-reduce), and the state its arguments were left in. The judge runs
the same test function again on the trusted side against a replay of those records: the test's own
assertions decide, over values rebuilt from plain data, with the judge's own callbacks counting."""

from __future__ import annotations

import builtins
import inspect
import traceback
from typing import Any

import torch

from quiz.grader import wire
from quiz.grader.mistakes import explain
from quiz.grader.results import FAIL, PASS, TestResult

KINDS = ("function",)
MAX_CALLS = 10_000


def _takes_seed(test: Any) -> bool:
    try:
        return len(inspect.signature(test).parameters) >= 2
    except (TypeError, ValueError):
        return False


def run_test(test: Any, entry: Any, seed: int) -> None:
    if _takes_seed(test):
        test(entry, seed)
    else:
        test(entry)


# ---------------------------------------------------------------- learner side (runs in the fenced child)

def _is_callback(value: Any) -> bool:
    return callable(value) and not isinstance(value, (type, torch.Tensor, torch.nn.Module))


def state_of(value: Any, depth: int = 0) -> Any:
    """What a call may have changed in an argument: tensors, modules (parameters and .grad), containers."""
    if depth > 8:
        return None
    if isinstance(value, torch.Tensor):
        return {"t": wire.tensor_to_wire(value)}
    if isinstance(value, torch.nn.Module):
        return {"m": [[n, wire.tensor_to_wire(p), wire.tensor_to_wire(p.grad) if p.grad is not None else None]
                      for n, p in value.named_parameters()]}
    if isinstance(value, (list, tuple)):
        return {"l": [state_of(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"d": [[wire.encode(k), state_of(v, depth + 1)] for k, v in value.items()]}
    return None


class _CallbackRecorder:
    def __init__(self, target: Any, where: list, events: list):
        self._target, self._where, self._events = target, where, events

    def __call__(self, *args, **kwargs):
        self._events.append([self._where, None, wire.encode(list(args)), wire.encode(kwargs)])
        return self._target(*args, **kwargs)

    def __getattr__(self, attr: str):
        value = getattr(self._target, attr)
        if not callable(value) or attr.startswith("__"):
            return value

        def method(*args, **kwargs):
            self._events.append([self._where, attr, wire.encode(list(args)), wire.encode(kwargs)])
            return value(*args, **kwargs)

        return method


class Log:
    """Everything the test did with the learner's objects, in order; handle 0 is the entry."""

    def __init__(self, filename: str):
        self.filename, self.records, self.handles = filename, [], 0

    def result(self, value: Any) -> tuple[Any, Any]:
        """(what the test gets, what the record holds): plain data, or a recording proxy for an object."""
        encoded = wire.encode(value)
        if isinstance(encoded, dict) and "__opaque__" in encoded and callable(getattr(value, "__getattribute__", None)):
            self.handles += 1
            return Recorder(value, self.handles, self), {"__handle__": self.handles}
        return value, encoded


class Recorder:
    """Stands in for the entry (or an object it returned) while the test function runs in the child."""

    def __init__(self, target: Any, handle: int, log: Log):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_log", log)

    def __call__(self, *args, **kwargs):
        return self._invoke(None, self._target, args, kwargs)

    def __getattr__(self, attr: str):
        value = getattr(self._target, attr)
        if callable(value) and not isinstance(value, (torch.Tensor, torch.nn.Module)):
            return lambda *args, **kwargs: self._invoke(attr, value, args, kwargs)
        got, encoded = self._log.result(value)
        self._log.records.append({"target": self._handle, "attr": attr, "op": "get", "result": encoded})
        return got

    def _invoke(self, attr: str | None, fn: Any, args: tuple, kwargs: dict):
        log = self._log
        if len(log.records) >= MAX_CALLS:
            raise RuntimeError("too many calls")
        events: list = []
        wrapped = [_CallbackRecorder(a, [i], events) if _is_callback(a) else a for i, a in enumerate(args)]
        wrapped_kw = {k: _CallbackRecorder(v, [k], events) if _is_callback(v) else v for k, v in kwargs.items()}
        record: dict = {"target": self._handle, "attr": attr, "op": "call", "events": events, "result": None, "raised": None}
        log.records.append(record)
        try:
            result = fn(*wrapped, **wrapped_kw)
        except BaseException as exc:  # noqa: BLE001 - recorded, then raised on as the test expects
            record["raised"] = {"type": type(exc).__name__[:80], "message": str(exc)[:2000], "line": _line(exc, log.filename)}
            record["post"] = _post(args, kwargs)
            raise
        got, record["result"] = log.result(result)
        record["post"] = _post(args, kwargs)
        return got


def _post(args: tuple, kwargs: dict) -> list:
    return [state_of(a) for a in args] + [[k, state_of(v)] for k, v in kwargs.items()]


def _line(exc: BaseException, filename: str) -> int | None:
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def measure(entry: Any, check: dict, seed: int, helpers: Any, filename: str) -> dict:
    test = getattr(helpers, check["function"])
    log = Log(filename)
    try:
        run_test(test, Recorder(entry, 0, log), seed)
    except BaseException:  # noqa: BLE001 - the judge runs the test again on the records and decides
        pass
    return {"calls": log.records}


# ---------------------------------------------------------------- trusted side (the judge process)

class LearnerRaised(Exception):
    """What the learner's code raised, raised again in the judge as the same built-in type."""

    info: dict = {}


def _raised(info: Any) -> LearnerRaised:
    info = info if type(info) is dict else {}
    base = getattr(builtins, str(info.get("type", "")), None)
    bases: tuple = (LearnerRaised,)
    if isinstance(base, type) and issubclass(base, Exception) and base not in (AssertionError,):
        bases = (LearnerRaised, base)
    cls = type(str(info.get("type", "Exception"))[:80] or "Exception", bases, {})
    exc = cls(str(info.get("message", "")))
    exc.info = info
    return exc


class Exhausted(Exception):
    """The test called the entry more often than the learner's records show."""


def _apply_state(target: Any, state: Any) -> None:
    if state is None:
        return
    if type(state) is not dict or len(state) != 1:
        raise wire.WireError("bad argument state")
    (key, value), = state.items()
    if key == "t" and isinstance(target, torch.Tensor):
        got = wire.tensor_from_wire(value)
        if got.shape != target.shape:
            raise wire.WireError(f"an argument of shape {list(target.shape)} came back as {list(got.shape)}")
        with torch.no_grad():
            target.copy_(got.to(target.dtype))
    elif key == "m" and isinstance(target, torch.nn.Module):
        params = dict(target.named_parameters())
        if type(value) is not list:
            raise wire.WireError("bad module state")
        for item in value:
            if type(item) is not list or len(item) != 3 or item[0] not in params:
                raise wire.WireError("bad module state")
            p = params[item[0]]
            _apply_state(p, {"t": item[1]})
            p.grad = wire.tensor_from_wire(item[2]).to(p.dtype) if item[2] is not None else None
            if p.grad is not None and p.grad.shape != p.shape:
                raise wire.WireError(f"{item[0]}.grad has shape {list(p.grad.shape)}, not {list(p.shape)}")
    elif key == "l" and isinstance(target, (list, tuple)) and type(value) is list:
        for t, s in zip(target, value):
            _apply_state(t, s)
    elif key == "d" and isinstance(target, dict) and type(value) is list:
        for pair in value:
            if type(pair) is list and len(pair) == 2:
                k = wire.decode(pair[0])
                if k in target:
                    _apply_state(target[k], pair[1])


class Replays:
    """The records of one check, handed out in order to the proxies that stand for the learner's objects."""

    def __init__(self, records: Any):
        if type(records) is not list:
            raise wire.WireError("calls: a list")
        self.records, self.used = records, 0

    def next(self, handle: int, attr: str | None, op: str) -> dict:
        if self.used >= len(self.records):
            raise Exhausted(self.used + 1)
        record = self.records[self.used]
        self.used += 1
        fields = {"target", "attr", "op", "result"} | ({"events", "raised", "post"} if op == "call" else set())
        if type(record) is not dict or set(record) != fields:
            raise wire.WireError("a call record has the wrong fields")
        if record["target"] != handle or record["attr"] != attr or record["op"] != op:
            raise wire.WireError("the records do not follow the test's own calls")
        return record

    def value(self, encoded: Any) -> Any:
        if type(encoded) is dict and set(encoded) == {"__handle__"} and type(encoded["__handle__"]) is int:
            return Replay(self, encoded["__handle__"])
        return wire.decode(encoded)


class Replay:
    """Stands in for the entry (or an object it returned) while the test function runs in the judge."""

    def __init__(self, replays: Replays, handle: int = 0):
        object.__setattr__(self, "_replays", replays)
        object.__setattr__(self, "_handle", handle)

    def __call__(self, *args, **kwargs):
        return self._invoke(None, args, kwargs)

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        replays = self._replays
        if replays.used < len(replays.records):
            upcoming = replays.records[replays.used]
            if type(upcoming) is dict and upcoming.get("op") == "get" and upcoming.get("attr") == attr:
                return replays.value(replays.next(self._handle, attr, "get")["result"])
        return lambda *args, **kwargs: self._invoke(attr, args, kwargs)

    def _invoke(self, attr: str | None, args: tuple, kwargs: dict):
        replays = self._replays
        record = replays.next(self._handle, attr, "call")
        events = record["events"]
        if type(events) is not list:
            raise wire.WireError("bad events")
        for event in events:
            if type(event) is not list or len(event) != 4 or type(event[0]) is not list or len(event[0]) != 1:
                raise wire.WireError("bad event")
            where = event[0][0]
            target = args[where] if type(where) is int and 0 <= where < len(args) else kwargs.get(where) if type(where) is str else None
            if target is None or not callable(target):
                raise wire.WireError("an event names no callback")
            fn = target if event[1] is None else getattr(target, str(event[1]))
            call_args, call_kwargs = wire.decode(event[2]), wire.decode(event[3])
            if type(call_args) is not list or type(call_kwargs) is not dict:
                raise wire.WireError("bad event arguments")
            fn(*call_args, **call_kwargs)
        post = record["post"]
        if type(post) is not list or len(post) != len(args) + len(kwargs):
            raise wire.WireError("bad argument states")
        for a, s in zip(args, post[: len(args)]):
            _apply_state(a, s)
        for (k, v), s in zip(kwargs.items(), post[len(args):]):
            if type(s) is list and len(s) == 2 and s[0] == k:
                _apply_state(v, s[1])
        if record["raised"] is not None:
            raise _raised(record["raised"])
        return replays.value(record["result"])


def judge(check: dict, seed: int, data: Any, ctx: Any) -> TestResult:
    name = ctx.name
    if type(data) is not dict or set(data) != {"calls"}:
        raise wire.WireError("the report has the wrong fields")
    test = getattr(ctx.helpers, check["function"], None)
    if test is None:
        raise LookupError(f"the exercise's checks.py has no test function {check['function']!r}")
    replays = Replays(data["calls"])
    try:
        run_test(test, Replay(replays), seed)
    except AssertionError as exc:
        return TestResult(name, FAIL, str(exc) or "an assertion failed")
    except LearnerRaised as exc:
        info = exc.info
        status, message = explain(str(info.get("type", "")), str(info.get("message", "")), [])
        if type(info.get("line")) is int:
            message = f"line {info['line']}: {message}"
        return TestResult(name, status, message)
    except Exhausted as exc:
        return TestResult(name, FAIL, f"your code left no result for call {exc.args[0]} of the entry (it stopped early)")
    except wire.WireError as exc:
        return TestResult(name, FAIL, f"what your code returned could not be read back: {exc}")
    except Exception as exc:  # noqa: BLE001 - malformed results break the test's own code: never a pass
        return TestResult(name, FAIL, f"what your code returned has the wrong form ({type(exc).__name__}: {exc})")
    return TestResult(name, PASS, "passed")
