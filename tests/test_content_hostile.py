"""Hostile packs: FIFOs, device links, bad scalars and control characters are problems at a line, never a hang."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from content_helpers import load_pack, messages, write
from quiz.cli.main import cli

LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (error|warning): .+$")
ESCAPES = ("\x1b", "\x07", "\x9b", "\x00")


def problem(bank, fragment: str):
    found = [p for p in bank.errors if fragment in p.message]
    assert found, messages(bank)
    return found[0]


def with_tags(valid_text: str, tags: str) -> str:
    return valid_text.replace("tags: [autograd]", f"tags: {tags}")


def run_quiz(args: list[str], pack, timeout: float = 60) -> subprocess.CompletedProcess:
    """A fresh `quiz` process; the timeout turns a hang into a failure instead of a stuck suite."""
    env = dict(os.environ, QUIZ_CONTENT_PATH=str(pack), PYTHONPATH=os.getcwd())
    return subprocess.run(
        [sys.executable, "-m", "quiz", "--lang", "en", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def fifo_and_device_pack(tmp_path, valid_text):
    write(tmp_path, "good.yaml", valid_text)
    os.mkfifo(tmp_path / "pipe.yaml")
    os.symlink("/dev/zero", tmp_path / "zero.yaml")
    return tmp_path


def test_fifo_and_device_link_are_refused_without_reading(fifo_and_device_pack):
    bank = load_pack(fifo_and_device_pack)
    assert "sample-question" in bank.questions
    fifo = problem(bank, "FIFO")
    device = problem(bank, "device")
    assert fifo.path.endswith("pipe.yaml") and device.path.endswith("zero.yaml")
    assert (fifo.line, fifo.col) == (1, 1)


@pytest.mark.parametrize("command", [["validate"], ["list"]])
def test_commands_do_not_hang_on_a_fifo(fifo_and_device_pack, command):
    proc = run_quiz(command, fifo_and_device_pack)
    assert "Traceback" not in proc.stderr
    out = proc.stdout + proc.stderr
    assert "pipe.yaml" in out


def test_app_start_does_not_hang_on_a_fifo_or_break_on_bad_scalars(fifo_and_device_pack, valid_text):
    from quiz.tui.app import build_context

    write(fifo_and_device_pack, "dated.yaml", with_tags(valid_text, "[2024-13-45]").replace("sample-question", "dated"))
    write(
        fifo_and_device_pack,
        "huge.yaml",
        valid_text.replace("difficulty: 1", "difficulty: " + "9" * 5000).replace("sample-question", "huge"),
    )
    ctx = build_context("en", [fifo_and_device_pack])
    assert "sample-question" in ctx.bank.questions and "dated" in ctx.bank.questions
    assert "huge" not in ctx.bank.questions
    if ctx.services is not None:
        ctx.services.close()


def test_size_is_checked_on_the_open_file(tmp_path):
    from quiz.content.readfile import RefusedFile, read_regular

    path = write(tmp_path, "big.yaml", "x" * 2000)
    assert len(read_regular(path, 2000)) == 2000
    with pytest.raises(RefusedFile, match="at most"):
        read_regular(path, 1999)


def test_invalid_date_in_a_list_is_just_a_string(tmp_path, valid_text):
    write(tmp_path, "q.yaml", with_tags(valid_text, "[2024-13-45, 2024-01-02]"))
    bank = load_pack(tmp_path)
    assert messages(bank) == []
    assert bank.questions["sample-question"].tags == ["2024-13-45", "2024-01-02"]


def test_invalid_date_key_is_reported_at_its_line(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text + "2024-02-30: x\n")
    bank = load_pack(tmp_path)
    found = problem(bank, "unknown key '2024-02-30'")
    assert found.line == valid_text.count("\n") + 1 and found.col == 1
    assert "sample-question" not in bank.questions


def test_integer_of_5000_digits_is_reported_at_line_and_column(tmp_path, valid_text):
    write(tmp_path, "q.yaml", valid_text.replace("difficulty: 1", "difficulty: " + "9" * 5000))
    bank = load_pack(tmp_path)
    found = problem(bank, "5000 digits")
    assert (found.line, found.col) == (4, 13)
    assert "sample-question" not in bank.questions


@pytest.mark.parametrize("tag", ["!!timestamp 2024-13-45", "!!binary aGk=", "!!set {a}"])
def test_non_core_tags_are_refused(tmp_path, valid_text, tag):
    write(
        tmp_path,
        "q.yaml",
        with_tags(valid_text, f"[{tag}]")
        if "set" not in tag
        else valid_text.replace("tags: [autograd]", f"tags: {tag}"),
    )
    found = problem(load_pack(tmp_path), "unsupported YAML")
    assert found.line == 5


@pytest.mark.parametrize("command", [["list"], ["validate"], ["review", "--plain"]])
def test_bad_scalars_never_give_a_traceback(tmp_path, valid_text, command):
    write(tmp_path, "a.yaml", with_tags(valid_text, "[2024-13-45]").replace("sample-question", "dated-question"))
    write(
        tmp_path,
        "b.yaml",
        valid_text.replace("difficulty: 1", "difficulty: " + "7" * 5000).replace("sample-question", "huge-question"),
    )
    write(tmp_path, "c.yaml", valid_text.replace("sample-question", "date-key") + "2024-02-30: x\n")
    proc = run_quiz(command, tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1)
    if command == ["validate"]:
        lines = [line for line in proc.stdout.splitlines() if str(tmp_path) in line]
        assert any("b.yaml:4:13" in line for line in lines), proc.stdout
        assert any("c.yaml:" in line for line in lines), proc.stdout
        assert all(LINE.match(line) for line in lines)


def test_nul_byte_is_reported_at_its_line(tmp_path, valid_text):
    broken = valid_text.replace("keywords: [{en: [created directly]", "keywords: [{en: [cre\x00ated directly]")
    assert broken != valid_text
    write(tmp_path, "q.yaml", broken.encode("utf-8"))
    found = problem(load_pack(tmp_path), "U+0000")
    assert (found.line, found.col) == (6, 21)


@pytest.mark.parametrize(
    "written, code",
    [
        ('"\\e[2J\\e]0;pwned\\a"', "U+001B"),  # clear screen and set the window title, as YAML escapes
        ('"bell \\x07"', "U+0007"),
        ('"csi \\x9b31m"', "U+009B"),  # the one-byte C1 CSI
        ("raw \x1b[2J here", "U+001B"),  # the raw byte in a plain scalar
    ],
)
def test_control_characters_are_errors_at_their_line(tmp_path, valid_text, written, code):
    text = valid_text.replace(
        'question: {zh: "什么是叶子张量？", en: "What is a leaf tensor?"}',
        f'question:\n  zh: "什么是叶子张量？"\n  en: {written}',
    )
    write(tmp_path, "q.yaml", text)
    bank = load_pack(tmp_path)
    found = problem(bank, code)
    assert found.line == 9
    assert "sample-question" not in bank.questions
    assert not any(ch in str(found) for ch in ESCAPES)


def test_newline_and_tab_are_allowed(tmp_path, valid_text):
    text = valid_text.replace('en: "What is a leaf tensor?"', 'en: "What is\\ta leaf\\ntensor?"')
    write(tmp_path, "q.yaml", text)
    assert messages(load_pack(tmp_path)) == []


def test_plain_output_never_passes_control_characters(tmp_path, valid_text):
    """Pack text reaches `list`, `review --plain` and `validate` only as visible escapes, if at all."""
    write(tmp_path, "q.yaml", valid_text.replace("What is a leaf tensor?", "\\e]0;pwned\\a\\e[2J"))
    write(tmp_path, "ok.yaml", valid_text.replace("sample-question", "fine-question"))
    os.mkfifo(tmp_path / "odd\x1b[2Jname.yaml")
    for command in (["list"], ["validate"], ["review", "--plain"]):
        proc = run_quiz(command, tmp_path)
        assert "Traceback" not in proc.stderr
        for ch in ESCAPES:
            assert ch not in proc.stdout and ch not in proc.stderr, (command, ch)
    listed = CliRunner().invoke(cli, ["--content", str(tmp_path), "list", "--module", "pytorch-internals"])
    assert "fine-question" in listed.output and "sample-question" not in listed.output


def test_printable_escapes_everything_but_newline_and_tab():
    from quiz.textsafe import printable

    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("\x1b[2J\x07\x9b\x7f") == "\\x1b[2J\\x07\\x9b\\x7f"
