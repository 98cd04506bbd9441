"""Rebuild models from data that was validated before (the content cache), without validating again."""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel

_set = object.__setattr__
_PLANS: dict[type, dict[str, tuple[str, Any]]] = {}


def _model_in(annotation: Any) -> type | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _plan(model: type[BaseModel]) -> dict[str, tuple[str, Any]]:
    plan: dict[str, tuple[str, Any]] = {}
    for name, info in model.model_fields.items():
        ann = info.annotation
        origin = typing.get_origin(ann)
        args = typing.get_args(ann)
        if origin is list and args and _model_in(args[0]):
            plan[name] = ("many", _model_in(args[0]))
        elif _model_in(ann):
            plan[name] = ("one", _model_in(ann))
    return plan


def construct(model: type[BaseModel], data: dict) -> BaseModel:
    """`model.model_construct` applied all the way down; `data` must be a model_dump of a valid model."""
    plan = _PLANS.get(model)
    if plan is None:
        plan = _PLANS[model] = _plan(model)
    values = dict(data)
    for name, (kind, sub) in plan.items():
        value = values.get(name)
        if value is None:
            continue
        # a field that may also hold a plain value (Union[str, Text]) keeps that value as it is
        if kind == "one":
            values[name] = construct(sub, value) if isinstance(value, dict) else value
        else:
            values[name] = [construct(sub, v) if isinstance(v, dict) else v for v in value]
    # what model_construct does, without its per-field bookkeeping: the data is complete and valid
    obj = model.__new__(model)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
