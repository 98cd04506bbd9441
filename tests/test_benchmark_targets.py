"""benchmarks/run.py exits 1 when a figure misses its target, and --loose widens every target."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from conftest import REPO


@pytest.fixture
def run_module(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_help(module, monkeypatch, capsys, *flags) -> tuple[int, dict]:
    monkeypatch.setattr(sys, "argv", ["run.py", "--only", "help", *flags])
    code = module.main()
    return code, json.loads(capsys.readouterr().out)


def test_a_missed_target_exits_1(run_module, monkeypatch, capsys):
    monkeypatch.setitem(run_module.TARGETS, "help_start_ms", ("<=", 0.001))
    code, out = run_help(run_module, monkeypatch, capsys)
    assert code == 1 and out["met"] == {"help_start_ms": False}
    monkeypatch.setitem(run_module.TARGETS, "help_start_ms", ("<=", 1e9))
    code, out = run_help(run_module, monkeypatch, capsys)
    assert code == 0 and out["met"] == {"help_start_ms": True} and out["figures"]["help_start_ms"] > 0


def test_loose_widens_limits_both_ways(run_module, monkeypatch, capsys):
    assert run_module.limit_for("<=", 100, loose=True) == 100 * run_module.LOOSE
    assert run_module.limit_for(">=", 20, loose=True) == 20 / run_module.LOOSE
    assert run_module.limit_for("<=", 100, loose=False) == 100
    monkeypatch.setitem(run_module.TARGETS, "help_start_ms", ("<=", 150))
    _, out = run_help(run_module, monkeypatch, capsys, "--loose")
    assert out["targets"] == {"help_start_ms": f"<= {150 * run_module.LOOSE}"}
