"""Helpers for content tests: write files into a pack and validate it against the built-in modules."""

from __future__ import annotations

from pathlib import Path

from quiz import paths
from quiz.content.bank import Bank
from quiz.content.loader import load_bank


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_pack(folder: Path, strict: bool = False) -> Bank:
    """The built-in bank plus `folder`, keeping only the problems found in `folder`."""
    builtin = paths.builtin_content_dir()
    bank = load_bank([builtin, folder], strict=strict, builtin=builtin)
    bank.problems = [p for p in bank.problems if p.path.startswith(str(folder))]
    return bank


def messages(bank: Bank) -> list[str]:
    return [str(p) for p in bank.problems]
