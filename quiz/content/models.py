"""Typed models of the content format (format_version 1): modules, questions, exercises."""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator, model_validator

from quiz.content.references import reference_problem

LANGS = ("zh", "en")
FORMAT_VERSION = 1
MAX_NUMBER = 305

# a strict int: YAML's `true` is not the version 1
FormatVersion = Annotated[StrictInt, Field(ge=FORMAT_VERSION, le=FORMAT_VERSION)]
Id = Annotated[StrictStr, Field(pattern=r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$", max_length=80)]


class Model(BaseModel):
    # defer_build: schemas are built on first validation, so a start from the cache never builds them
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Text(Model):
    """One text in both languages; a missing language is reported by the validator."""

    zh: Optional[StrictStr] = None
    en: Optional[StrictStr] = None

    def get(self, lang: str) -> str:
        """The text in `lang`, falling back to the other language."""
        value = getattr(self, lang, None) or self.en or self.zh
        return value or ""


class TextList(Model):
    zh: Optional[list[StrictStr]] = None
    en: Optional[list[StrictStr]] = None

    def get(self, lang: str) -> list[str]:
        value = getattr(self, lang, None) or self.en or self.zh
        return list(value or [])


class Card(Model):
    id: Id
    front: Text
    back: Text


class Option(Model):
    text: Text
    correct: StrictBool = False


class Choice(Model):
    id: Id
    prompt: Text
    options: Annotated[list[Option], Field(min_length=2, max_length=6)]
    explain: Text
    select_all: StrictBool = False


class FollowUp(Model):
    question: Text
    answer: Text


class KeywordGroup(Model):
    """One concept a strong answer names, with the forms people write for it in each language."""

    en: Annotated[list[Annotated[StrictStr, Field(min_length=1)]], Field(min_length=1)]
    zh: Annotated[list[Annotated[StrictStr, Field(min_length=1)]], Field(min_length=1)]


class Question(Model):
    format_version: FormatVersion
    id: Id
    number: Optional[Annotated[StrictInt, Field(ge=1, le=MAX_NUMBER)]] = None
    module: Id
    difficulty: Annotated[StrictInt, Field(ge=1, le=3)] = 2
    tags: list[StrictStr] = []
    keywords: list[Union[StrictStr, KeywordGroup]] = []  # a plain string is one term in both languages
    question: Text
    answer: Text
    key_points: TextList = TextList()
    memory_points: TextList = TextList()
    cards: list[Card] = []
    choices: list[Choice] = []
    follow_ups: list[FollowUp] = []
    exercises: list[Id] = []
    related: list[Id] = []


class Module(Model):
    id: Id
    number: Annotated[StrictInt, Field(ge=1)]
    name: Text
    summary: Text
    range: Optional[Annotated[list[StrictInt], Field(min_length=2, max_length=2)]] = None


class ModulesFile(Model):
    format_version: FormatVersion
    modules: list[Module]


Number = Union[StrictInt, float]


class TensorSpec(Model):
    """A random input tensor: shape, value range, dtype; `requires_grad` for differentiable inputs."""

    shape: list[StrictInt]
    low: Number = -2.0
    high: Number = 2.0
    dtype: Literal["float64", "float32", "int64"] = "float64"
    requires_grad: StrictBool = True
    values: Optional[list[Number]] = None  # fixed values (flattened) instead of random ones


class Arg(Model):
    """One positional argument of the entry: a tensor, a plain value, or None."""

    name: Optional[StrictStr] = None  # how messages call this argument (x, weight, bias, ...)
    tensor: Optional[TensorSpec] = None
    value: Optional[Union[StrictBool, StrictInt, float, StrictStr, list[Number]]] = None
    none: StrictBool = False
    fn: Optional[StrictStr] = None  # the name of a function defined in the exercise's checks.py


class Check(Model):
    """One declarative check; `kind` decides which fields matter."""

    kind: Literal[
        "gradcheck", "gradgradcheck", "reference", "saved", "backward_contract", "function", "kernel", "distributed"
    ]
    name: Optional[Union[StrictStr, Text]] = None  # a string, or {zh, en}
    args: list[Arg] = []
    reference: Optional[StrictStr] = None  # a torch op (see quiz.content.references), or checks:NAME
    grads: StrictBool = True  # compare input gradients with the reference too
    atol: Number = 1e-6
    rtol: Number = 1e-5
    function: Optional[StrictStr] = None  # a function in checks.py (kinds function and saved)
    min_launches: Annotated[StrictInt, Field(ge=1, le=64)] = 1  # kernel: launches of the file's own kernels
    world_size: Annotated[StrictInt, Field(ge=2, le=4)] = 2  # distributed: how many ranks
    judge: Optional[StrictStr] = None  # distributed: the judge function in checks.py
    timeout_s: Optional[Annotated[Number, Field(gt=0, le=60)]] = None  # distributed: how long ranks may take

    @model_validator(mode="after")
    def _fields_of_kind(self) -> "Check":
        if self.kind in ("function", "saved", "distributed") and not self.function:
            raise ValueError(f"a '{self.kind}' check needs 'function' (a function in checks.py)")
        if self.kind == "distributed" and not self.judge:
            raise ValueError("a 'distributed' check needs 'judge' (a judge function in checks.py)")
        return self

    @field_validator("reference")
    @classmethod
    def _allowed_reference(cls, value: Optional[str]) -> Optional[str]:
        problem = reference_problem(value) if value is not None else None
        if problem:
            raise ValueError(problem)
        return value


class Exercise(Model):
    format_version: FormatVersion
    id: Id
    title: Text
    module: Id
    questions: list[Id] = []
    entry: Annotated[StrictStr, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
    autograd_function: StrictBool = False  # the entry must subclass torch.autograd.Function
    difficulty: Annotated[StrictInt, Field(ge=1, le=3)] = 2
    time_limit_s: Annotated[Number, Field(gt=0, le=120)] = 10
    prompt: Text
    hints: TextList = TextList()
    checks: Annotated[list[Check], Field(min_length=1)]
