"""Shared fixtures: every test runs with its own QUIZ_HOME and no user content path."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Keep the developer's own data, config and content packs out of every test."""
    home = tmp_path_factory.mktemp("quiz-home")
    monkeypatch.setenv("QUIZ_HOME", str(home))
    monkeypatch.delenv("QUIZ_CONTENT_PATH", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    return home


@pytest.fixture
def valid_text() -> str:
    return (FIXTURES / "pack" / "valid.yaml").read_text(encoding="utf-8")
