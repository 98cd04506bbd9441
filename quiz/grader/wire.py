"""Values as plain JSON between the learner's child and the judge: tensors as raw bytes with dtype and
shape, tuples, sets and dicts kept apart from lists. Decoding builds fresh objects on the trusted side and
never calls a method of anything the learner made."""

from __future__ import annotations

import base64
import math
from typing import Any

import torch

MAX_DEPTH = 24
DTYPES = {
    name: getattr(torch, name)
    for name in ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")
}


class WireError(ValueError):
    """A value from the child is not in the shape the protocol allows."""


class Opaque:
    """Stands in for an object the wire cannot carry; equal to nothing."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name} object>"

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def _plain_tensor(t: torch.Tensor) -> torch.Tensor:
    base = torch.Tensor.as_subclass(t, torch.Tensor)
    return torch.Tensor.contiguous(torch.Tensor.detach(base).cpu()).clone()


def tensor_to_wire(t: torch.Tensor) -> dict:
    plain = _plain_tensor(t)
    name = str(plain.dtype).replace("torch.", "")
    if name not in DTYPES:
        plain, name = plain.to(torch.float64), "float64"
    return {"__tensor__": name, "shape": list(plain.shape), "b64": base64.b64encode(_raw_bytes(plain)).decode()}


def _raw_bytes(plain: torch.Tensor) -> bytes:
    if plain.numel() == 0:
        return b""
    flat = plain.reshape(-1).view(torch.uint8)
    try:
        return flat.numpy().tobytes()
    except (ImportError, RuntimeError, TypeError):  # torch built without numpy
        return bytes(flat.tolist())


def encode(value: Any, depth: int = 0) -> Any:
    """Learner-side: a value as JSON-able data."""
    if depth > MAX_DEPTH:
        return {"__opaque__": "too deeply nested"}
    if value is None or isinstance(value, (bool, str)):
        return value if not isinstance(value, str) else str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        f = float.__float__(value)
        return f if math.isfinite(f) else {"__float__": repr(f)}
    if isinstance(value, torch.Tensor):
        return tensor_to_wire(value)
    if isinstance(value, torch.Size):
        return {"__tuple__": [int(v) for v in value]}
    if isinstance(value, torch.dtype):
        return {"__dtype__": str(value).replace("torch.", "")}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v, depth + 1) for v in tuple.__iter__(value)]}
    if isinstance(value, list):
        return [encode(v, depth + 1) for v in list.__iter__(value)]
    if isinstance(value, (set, frozenset)):
        return {"__set__": [encode(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in dict.items(value)]}
    item = getattr(type(value), "item", None)
    if item is not None and type(value).__module__ == "numpy":
        return encode(value.item(), depth + 1)
    return {"__opaque__": type(value).__name__[:80]}


def decode(data: Any, depth: int = 0) -> Any:
    """Trusted side: fresh Python and torch objects from wire data; raises WireError on anything else."""
    if depth > MAX_DEPTH + 1:
        raise WireError("nested too deeply")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode(v, depth + 1) for v in data]
    if type(data) is not dict or len(data) == 0:
        raise WireError(f"unexpected {type(data).__name__}")
    if "__tensor__" in data:
        return tensor_from_wire(data)
    if set(data) == {"__float__"} and data["__float__"] in ("nan", "inf", "-inf"):
        return float(data["__float__"])
    if set(data) == {"__tuple__"} and type(data["__tuple__"]) is list:
        return tuple(decode(v, depth + 1) for v in data["__tuple__"])
    if set(data) == {"__set__"} and type(data["__set__"]) is list:
        items = [decode(v, depth + 1) for v in data["__set__"]]
        try:
            return set(items)
        except TypeError as exc:
            raise WireError("unhashable set item") from exc
    if set(data) == {"__dict__"} and type(data["__dict__"]) is list:
        out = {}
        for pair in data["__dict__"]:
            if type(pair) is not list or len(pair) != 2:
                raise WireError("bad dict item")
            key = decode(pair[0], depth + 1)
            try:
                out[key] = decode(pair[1], depth + 1)
            except TypeError as exc:
                raise WireError("unhashable dict key") from exc
        return out
    if set(data) == {"__dtype__"} and data["__dtype__"] in DTYPES:
        return DTYPES[data["__dtype__"]]
    if set(data) == {"__opaque__"} and type(data["__opaque__"]) is str:
        return Opaque(data["__opaque__"])
    raise WireError(f"unexpected fields {sorted(map(str, data))[:5]}")


def tensor_from_wire(data: Any) -> torch.Tensor:
    if type(data) is not dict or set(data) != {"__tensor__", "shape", "b64"}:
        raise WireError("a tensor needs exactly __tensor__, shape and b64")
    dtype = DTYPES.get(data["__tensor__"]) if type(data["__tensor__"]) is str else None
    shape = data["shape"]
    if dtype is None or type(shape) is not list or not all(type(s) is int and 0 <= s < 2**31 for s in shape):
        raise WireError("bad tensor dtype or shape")
    try:
        raw = base64.b64decode(data["b64"], validate=True) if type(data["b64"]) is str else None
    except ValueError as exc:
        raise WireError("bad tensor bytes") from exc
    numel = math.prod(shape)
    itemsize = torch.empty(0, dtype=dtype).element_size()
    if raw is None or len(raw) != numel * itemsize:
        raise WireError(f"tensor of shape {shape} needs {numel * itemsize} bytes")
    if numel == 0:
        return torch.empty(shape, dtype=dtype)
    return torch.frombuffer(bytearray(raw), dtype=dtype).reshape(shape).clone()
