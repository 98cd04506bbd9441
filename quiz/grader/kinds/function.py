"""Plain functions (simulations): the learner side runs the checks.py test function against a recorder
that notes, for every call of the entry, what it returned or raised, every call it made to a callback it
was given (a simulated network, an all-reduce), and the state its arguments were left in. The judge runs
the same test function again on the trusted side against a replay of those records: the test's own
assertions decide, over values rebuilt from plain data, with the judge's own callbacks counting."""

from __future__ import annotations

import asyncio
import builtins
import inspect
import threading
from typing import Any

import torch

from quiz.grader import wire
from quiz.grader.mistakes import explain, learner_line
from quiz.grader.results import FAIL, PASS, TestResult
from quiz.grader.say import say

KINDS = ("function",)
MAX_CALLS = 10_000
MAX_THREAD_NAME = 64


def _thread() -> str:
    """Which thread a call came from: records are replayed per thread, so a test that calls the learner's
    object from several named threads (see quiz.grader.threads) replays the same way whatever the interleaving."""
    return threading.current_thread().name[:MAX_THREAD_NAME]


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
        return {
            "m": [
                [n, wire.tensor_to_wire(p), wire.tensor_to_wire(p.grad) if p.grad is not None else None]
                for n, p in value.named_parameters()
            ]
        }
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

    def __init__(self, filename: str, observe: Any = None):
        self.filename, self.handles = filename, 0
        self.records: list[dict] = []
        self.observe = observe  # checks.py's observe(): what its own recorders saw during a call
        self.lock = threading.Lock()

    def result(self, value: Any, xs: list[torch.Tensor] | tuple = ()) -> tuple[Any, Any]:
        """(what the test gets, what the record holds): plain data, or a recording proxy for an object.
        Returned tensors with a graph carry their Jacobian with respect to the call's tensors `xs`."""
        encoded = encode_result(value, list(xs))
        if isinstance(encoded, dict) and "__opaque__" in encoded:
            with self.lock:
                self.handles += 1
                handle = self.handles
            return Recorder(value, handle, self), {"__handle__": handle}
        return value, encoded


def _unwrap(value: Any, depth: int = 0) -> Any:
    """An object of the learner's that the test hands back to the learner's code goes back as itself, not as the
    proxy: its own use inside that call is not one of the test's calls (a class passed as a base, a handle)."""
    if isinstance(value, Recorder):
        return object.__getattribute__(value, "_target")
    if depth < 2 and type(value) in (tuple, list, dict):  # rebuilt only around a proxy: in-place changes still show
        items = list(value.values()) if type(value) is dict else list(value)
        unwrapped = [_unwrap(v, depth + 1) for v in items]
        if all(u is v for u, v in zip(unwrapped, items)):
            return value
        if type(value) is dict:
            return dict(zip(value.keys(), unwrapped))
        return type(value)(unwrapped)
    return value


def _no_set(obj: Any, value: Any) -> None:
    raise AttributeError("the descriptor has no __set__")


class Recorder:
    """Stands in for the entry (or an object it returned) while the test function runs in the child."""

    def __init__(self, target: Any, handle: int, log: Log):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_log", log)

    def __call__(self, *args, **kwargs):
        return self._invoke(None, self._target, args, kwargs)

    # The descriptor protocol: a learner's descriptor that the test puts in a class body is called by Python
    # through these, so each __set_name__, __get__ and __set__ is a recorded call like any other.
    def __set_name__(self, owner: Any, name: str) -> None:
        hook = getattr(type(self._target), "__set_name__", None)
        fn = (lambda o, n: hook(self._target, o, n)) if hook else (lambda o, n: None)
        self._invoke("__set_name__", fn, (owner, name), {})

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        hook = getattr(type(self._target), "__get__", None)
        fn = (lambda o, t: hook(self._target, o, t)) if hook else (lambda o, t: self._target)
        return self._invoke("__get__", fn, (obj, objtype), {})

    def __set__(self, obj: Any, value: Any) -> None:
        hook = getattr(type(self._target), "__set__", None)
        fn = (lambda o, v: hook(self._target, o, v)) if hook else _no_set
        self._invoke("__set__", fn, (obj, value), {})

    def __getattr__(self, attr: str):
        value = getattr(self._target, attr)
        if callable(value) and not isinstance(value, (torch.Tensor, torch.nn.Module)):
            return lambda *args, **kwargs: self._invoke(attr, value, args, kwargs)
        got, encoded = self._log.result(value)
        self._log.records.append(
            {"target": self._handle, "attr": attr, "op": "get", "result": encoded, "thread": _thread()}
        )
        return got

    def _invoke(self, attr: str | None, fn: Any, args: tuple, kwargs: dict):
        log = self._log
        if len(log.records) >= MAX_CALLS:
            raise RuntimeError(say("too many calls", "调用次数过多"))
        events: list = []
        args, kwargs = tuple(_unwrap(a) for a in args), {k: _unwrap(v) for k, v in kwargs.items()}
        wrapped = [_CallbackRecorder(a, [i], events) if _is_callback(a) else a for i, a in enumerate(args)]
        wrapped_kw = {k: _CallbackRecorder(v, [k], events) if _is_callback(v) else v for k, v in kwargs.items()}
        record: dict = {
            "target": self._handle,
            "attr": attr,
            "op": "call",
            "events": events,
            "result": None,
            "raised": None,
            "thread": _thread(),
        }
        log.records.append(record)  # before the call: a call that never returns is left without "post"
        try:
            result = fn(*wrapped, **wrapped_kw)
        except BaseException as exc:  # noqa: BLE001 - recorded, then raised on as the test expects
            self._raised(record, exc, args, kwargs)
            raise
        if inspect.iscoroutine(result):  # an `async def`: the call ends when the test has awaited it
            return self._awaited(result, record, args, kwargs)
        got, record["result"] = log.result(result, differentiable_leaves(list(args) + list(kwargs.values())))
        self._finish(record, args, kwargs)
        return got

    async def _awaited(self, coroutine: Any, record: dict, args: tuple, kwargs: dict) -> Any:
        try:
            value = await coroutine
        except asyncio.CancelledError:  # the test gave up waiting (asyncio.wait_for): a call that never returned
            raise
        except BaseException as exc:  # noqa: BLE001 - recorded, then raised on as the test expects
            self._raised(record, exc, args, kwargs)
            raise
        got, encoded = self._log.result(value)
        record["result"] = {"__coro__": encoded}
        self._finish(record, args, kwargs)
        return got

    def _raised(self, record: dict, exc: BaseException, args: tuple, kwargs: dict) -> None:
        record["raised"] = {
            "type": type(exc).__name__[:80],
            "message": str(exc)[:2000],
            "line": learner_line(exc, self._log.filename),
        }
        record["post"] = _post(args, kwargs)

    def _finish(self, record: dict, args: tuple, kwargs: dict) -> None:
        record["post"] = _post(args, kwargs)
        if self._log.observe is not None:
            record["observed"] = wire.encode(self._log.observe())


MAX_JACOBIAN = 4_000_000


def differentiable_leaves(values: Any, depth: int = 0) -> list[torch.Tensor]:
    """Tensors that require grad among the arguments, in a fixed order (containers walked in order)."""
    found: list[torch.Tensor] = []
    for v in values:
        if isinstance(v, torch.Tensor):
            if v.requires_grad:
                found.append(v)
        elif isinstance(v, (list, tuple)) and depth < 4:
            found += differentiable_leaves(v, depth + 1)
    return found


def _jacobian(out: torch.Tensor, xs: list[torch.Tensor]) -> list[Any]:
    """d out / d x for each x, as (out.numel(), x.numel()) matrices; None where out does not depend on x."""
    if out.numel() * sum(x.numel() for x in xs) > MAX_JACOBIAN:
        raise ValueError(say("an output too large to follow its gradient", "输出太大，无法追踪它的梯度"))
    rows: list[list[torch.Tensor | None]] = [[] for _ in xs]
    flat = out.reshape(-1)
    for k in range(flat.numel()):
        grads = torch.autograd.grad(flat[k], xs, retain_graph=True, allow_unused=True)
        for j, g in enumerate(grads):
            rows[j].append(g.reshape(-1) if g is not None else None)
    jac: list[Any] = []
    for x, col in zip(xs, rows):
        if all(g is None for g in col):
            jac.append(None)
        else:
            zero = torch.zeros(x.numel(), dtype=x.dtype)
            jac.append(
                wire.tensor_to_wire(
                    torch.stack([g if g is not None else zero for g in col]) if col else torch.zeros(0, x.numel())
                )
            )
    return jac


def encode_result(value: Any, xs: list[torch.Tensor], depth: int = 0) -> Any:
    if isinstance(value, torch.Tensor) and value.grad_fn is not None and xs:
        return {"__diff__": wire.tensor_to_wire(value), "jac": _jacobian(value, xs)}
    if (
        depth < 4
        and isinstance(value, (list, tuple))
        and any(isinstance(v, torch.Tensor) and v.grad_fn is not None for v in value)
    ):
        items = [encode_result(v, xs, depth + 1) for v in value]
        return {"__tuple__": items} if isinstance(value, tuple) else items
    return wire.encode(value)


def _post(args: tuple, kwargs: dict) -> list:
    return [state_of(a) for a in args] + [[k, state_of(v)] for k, v in kwargs.items()]


def measure(entry: Any, check: dict, seed: int, helpers: Any, filename: str) -> dict:
    test = getattr(helpers, check["function"])
    log = Log(filename, getattr(helpers, "observe", None))
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


class Exhausted(BaseException):
    """The test called the entry more often than the learner's records show (a BaseException, like Hung, so
    that a test's own `except Exception` around a learner call cannot swallow it)."""


class Hung(BaseException):
    """A call of the learner's code that started in the child and never returned (a deadlock, a lost wakeup)."""


def _apply_state(target: Any, state: Any) -> None:
    if state is None:
        return
    if type(state) is not dict or len(state) != 1:
        raise wire.WireError("bad argument state")
    ((key, value),) = state.items()
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


class _Recorded(torch.autograd.Function):
    """A value the learner's code computed, with the gradient its own graph gives (its Jacobian)."""

    @staticmethod
    def forward(ctx, value, jacobians, *xs):
        ctx.jacobians = jacobians
        ctx.shapes = [x.shape for x in xs]
        return value.clone()

    @staticmethod
    def backward(ctx, grad):
        g = grad.reshape(-1).to(torch.float64)
        grads = [
            None if J is None else (J.to(torch.float64).t() @ g).reshape(shape).to(grad.dtype)
            for J, shape in zip(ctx.jacobians, ctx.shapes)
        ]
        return (None, None, *grads)


def _differentiable(encoded: dict, xs: list[torch.Tensor]) -> torch.Tensor:
    value = wire.tensor_from_wire(encoded["__diff__"])
    jac = encoded["jac"]
    if type(jac) is not list or len(jac) != len(xs):
        raise wire.WireError("a gradient record does not match the call's inputs")
    matrices = []
    for J, x in zip(jac, xs):
        m = None if J is None else wire.tensor_from_wire(J)
        if m is not None and tuple(m.shape) != (value.numel(), x.numel()):
            raise wire.WireError("a Jacobian has the wrong shape")
        matrices.append(m)
    return _Recorded.apply(value, matrices, *xs)


class Replays:
    """The records of one check, handed out in order, thread by thread, to the proxies that stand for the
    learner's objects (each thread of the test gets the records its namesake made in the child)."""

    def __init__(self, records: Any, restore: Any = None):
        if type(records) is not list:
            raise wire.WireError("calls: a list")
        if any(type(r) is not dict or type(r.get("thread")) is not str for r in records):
            raise wire.WireError("a call record has the wrong fields")
        self.records, self.used = records, 0
        self.queues: dict[str, list[int]] = {}
        for index in reversed(range(len(records))):
            self.queues.setdefault(records[index]["thread"], []).append(index)
        self.lock = threading.Lock()
        self.restore = restore  # checks.py's restore(observed): its recorders as the learner's run left them

    def peek(self) -> Any:
        queue = self.queues.get(_thread())
        return self.records[queue[-1]] if queue else None

    def next(self, handle: int, attr: str | None, op: str) -> dict:
        with self.lock:
            queue = self.queues.get(_thread())
            if not queue:
                raise Exhausted(self.used + 1)
            record = self.records[queue.pop()]
            self.used += 1
            number = self.used
        fields = {"target", "attr", "op", "result", "thread"} | (
            {"events", "raised", "post"} if op == "call" else set()
        )
        if op == "call" and set(record) == fields - {"post"} and record.get("op") == "call":
            raise Hung(number)
        if set(record) - {"observed"} != fields or ("observed" in record) != (
            op == "call" and self.restore is not None and record.get("raised") is None
        ):
            raise wire.WireError("a call record has the wrong fields")
        if record["target"] != handle or record["attr"] != attr or record["op"] != op:
            raise wire.WireError("the records do not follow the test's own calls")
        return record

    def value(self, encoded: Any, xs: list[torch.Tensor] | tuple = (), depth: int = 0) -> Any:
        if type(encoded) is dict and set(encoded) == {"__coro__"} and depth == 0:
            inner = self.value(encoded["__coro__"], (), 1)

            async def awaited() -> Any:
                return inner

            return awaited()
        if type(encoded) is dict and set(encoded) == {"__handle__"} and type(encoded["__handle__"]) is int:
            return Replay(self, encoded["__handle__"])
        if type(encoded) is dict and set(encoded) == {"__diff__", "jac"}:
            return _differentiable(encoded, list(xs))
        if depth < 4 and type(encoded) is list and any(type(v) is dict and "__diff__" in v for v in encoded):
            return [self.value(v, xs, depth + 1) for v in encoded]
        if (
            depth < 4
            and type(encoded) is dict
            and set(encoded) == {"__tuple__"}
            and type(encoded["__tuple__"]) is list
            and any(type(v) is dict and "__diff__" in v for v in encoded["__tuple__"])
        ):
            return tuple(self.value(v, xs, depth + 1) for v in encoded["__tuple__"])
        return wire.decode(encoded)


class Replay:
    """Stands in for the entry (or an object it returned) while the test function runs in the judge."""

    def __init__(self, replays: Replays, handle: int = 0):
        object.__setattr__(self, "_replays", replays)
        object.__setattr__(self, "_handle", handle)

    def __call__(self, *args, **kwargs):
        return self._invoke(None, args, kwargs)

    def __set_name__(self, owner: Any, name: str) -> None:
        self._invoke("__set_name__", (owner, name), {})

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self._invoke("__get__", (obj, objtype), {})

    def __set__(self, obj: Any, value: Any) -> None:
        self._invoke("__set__", (obj, value), {})

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        replays = self._replays
        upcoming = replays.peek()
        if upcoming is not None and upcoming.get("op") == "get" and upcoming.get("attr") == attr:
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
            target = (
                args[where]
                if type(where) is int and 0 <= where < len(args)
                else kwargs.get(where)
                if type(where) is str
                else None
            )
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
        for (k, v), s in zip(kwargs.items(), post[len(args) :]):
            if type(s) is list and len(s) == 2 and s[0] == k:
                _apply_state(v, s[1])
        if record["raised"] is not None:
            raise _raised(record["raised"])
        if replays.restore is not None:
            replays.restore(wire.decode(record["observed"]))
        return replays.value(record["result"], differentiable_leaves(list(args) + list(kwargs.values())))


def judge(check: dict, seed: int, data: Any, ctx: Any) -> TestResult:
    name = ctx.name
    if type(data) is not dict or set(data) != {"calls"}:
        raise wire.WireError("the report has the wrong fields")
    test = getattr(ctx.helpers, check["function"], None)
    if test is None:
        raise LookupError(
            say(
                f"the exercise's checks.py has no test function {check['function']!r}",
                f"本题的 checks.py 里没有测试函数 {check['function']!r}",
            )
        )
    replays = Replays(data["calls"], getattr(ctx.helpers, "restore", None))
    try:
        run_test(test, Replay(replays), seed)
    except AssertionError as exc:
        return TestResult(name, FAIL, str(exc) or say("an assertion failed", "断言失败"))
    except LearnerRaised as exc:
        info = exc.info
        status, message = explain(str(info.get("type", "")), str(info.get("message", "")), [])
        if type(info.get("line")) is int:
            message = say(f"line {info['line']}: {message}", f"第 {info['line']} 行：{message}")
        return TestResult(name, status, message)
    except Hung as exc:
        return TestResult(
            name,
            FAIL,
            say(
                f"call {exc.args[0]} of your code never returned: a deadlock, or a wait that nothing wakes up "
                "(a lock taken twice, a notify that never comes, a wait with no timeout)",
                f"你的代码的第 {exc.args[0]} 次调用一直没有返回：死锁，或者一个没有人唤醒的等待"
                "（同一把锁取了两次、notify 一直没来、没有超时的 wait）",
            ),
        )
    except Exhausted as exc:
        return TestResult(
            name,
            FAIL,
            say(
                f"your code left no result for call {exc.args[0]} of the entry (it stopped early)",
                f"你的代码没有留下对入口第 {exc.args[0]} 次调用的结果（提前停止了）",
            ),
        )
    except wire.WireError as exc:
        return TestResult(
            name,
            FAIL,
            say(f"what your code returned could not be read back: {exc}", f"无法读回你的代码返回的内容：{exc}"),
        )
    except Exception as exc:  # noqa: BLE001 - malformed results break the test's own code: never a pass
        return TestResult(name, FAIL, wrong_form(exc))
    return TestResult(name, PASS, say("passed", "通过"))


def wrong_form(exc: Exception) -> str:
    """The message for a result that broke the exercise's own test code: a failure, never a pass."""
    return say(
        f"what your code returned has the wrong form ({type(exc).__name__}: {exc})",
        f"你的代码返回值的形式不对（{type(exc).__name__}: {exc}）",
    )
