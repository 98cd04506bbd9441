"""Build a check's arguments from its spec, identically in the child and on the trusted side."""

from __future__ import annotations

import math
from typing import Any

import torch

DTYPES = {"float64": torch.float64, "float32": torch.float32, "int64": torch.int64}


def build_args(args: list[dict], seed: int, helpers: Any = None) -> list[Any]:
    """Fresh tensors (seeded per argument) and plain values; `fn` names a function in checks.py."""
    out: list[Any] = []
    for i, arg in enumerate(args):
        if arg.get("tensor") is not None:
            out.append(make_tensor(arg["tensor"], seed * 1000 + i))
        elif arg.get("fn"):
            if helpers is None or not hasattr(helpers, arg["fn"]):
                raise LookupError(f"the exercise's checks.py has no function {arg['fn']!r}")
            out.append(getattr(helpers, arg["fn"]))
        elif arg.get("none"):
            out.append(None)
        else:
            out.append(arg.get("value"))
    return out


def make_tensor(spec: dict, seed: int) -> torch.Tensor:
    dtype = DTYPES[spec.get("dtype", "float64")]
    shape = list(spec["shape"])
    if spec.get("values") is not None:
        t = torch.tensor(spec["values"], dtype=dtype).reshape(shape)
    else:
        gen = torch.Generator().manual_seed(seed)
        low, high = float(spec.get("low", -2.0)), float(spec.get("high", 2.0))
        if dtype == torch.int64:
            t = torch.randint(int(low), int(high) + 1, shape, generator=gen)
        else:
            t = torch.rand(shape, generator=gen, dtype=torch.float64) * (high - low) + low
            t = t.to(dtype)
    if spec.get("requires_grad", True) and t.is_floating_point():
        t.requires_grad_(True)
    return t


def grad_outputs_for(outputs: list[torch.Tensor], seed: int) -> list[torch.Tensor]:
    """Seeded random upstream gradients, one per output."""
    gen = torch.Generator().manual_seed(seed * 7919 + 17)
    return [torch.rand(o.shape, generator=gen, dtype=torch.float64).to(o.dtype) * 2 - 1 for o in outputs]


def differentiable(values: list[Any]) -> list[int]:
    return [i for i, v in enumerate(values) if isinstance(v, torch.Tensor) and v.requires_grad]


def tensors_of(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []


def plain(t: torch.Tensor) -> dict:
    """A tensor as JSON-able data (float64 values, NaN and inf kept)."""
    flat = t.detach().to(torch.float64).reshape(-1).tolist()
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""), "data": flat}


def from_plain(d: dict) -> torch.Tensor:
    data = [float(x) if x is not None else math.nan for x in d["data"]]
    return torch.tensor(data, dtype=torch.float64).reshape(d["shape"])
