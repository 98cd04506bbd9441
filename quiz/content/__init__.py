"""The question bank: typed models, safe YAML loading and validation (no UI, no torch)."""

from __future__ import annotations

import os
from pathlib import Path

from quiz.content.bank import Bank
from quiz.content.problems import Problem

__all__ = ["Bank", "Problem", "load_default_bank", "content_roots"]


def content_roots(extra: list[Path] | None = None) -> list[Path]:
    """The built-in bank, then QUIZ_CONTENT_PATH folders, then folders given on the command line."""
    from quiz import paths

    roots = [paths.builtin_content_dir()] + paths.extra_content_dirs() + list(extra or [])
    unique: list[Path] = []
    for root in roots:
        if root not in unique:
            unique.append(root)
    return unique


def load_default_bank(extra: list[Path] | None = None, strict: bool = False) -> Bank:
    from quiz import paths
    from quiz.content.loader import load_bank

    cache = None if os.environ.get("QUIZ_NO_CACHE") else paths.cache_dir() / "content.json"
    return load_bank(content_roots(extra), strict=strict, builtin=paths.builtin_content_dir(), cache_file=cache)
