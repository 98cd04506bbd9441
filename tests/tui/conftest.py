"""TUI fixtures: an app over the small test pack, a fixed clock, and a fake fast grader."""

from __future__ import annotations

import pytest

from tui.harness import make_context


@pytest.fixture
def ctx(tmp_path):
    context = make_context(tmp_path)
    yield context
    context.services.close()
