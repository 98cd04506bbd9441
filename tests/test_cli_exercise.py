"""`quiz exercise`, `quiz check` and `quiz watch` as a learner uses them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time

from proc_lines import lines

from quiz import paths

SILU = paths.builtin_content_dir() / "01-pytorch-internals" / "exercises" / "silu-function"


def quiz(*args, home, stdin=None, timeout=120):
    env = dict(os.environ, QUIZ_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "quiz", "--lang", "en", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_start_check_hint_and_solution(isolated_home):
    started = quiz("exercise", "start", "silu-function", home=isolated_home)
    workspace = isolated_home / "workspace" / "silu_function.py"
    assert started.returncode == 0 and str(workspace) in started.stdout
    assert workspace.read_text() == (SILU / "starter.py").read_text()
    failing = quiz("check", "silu-function", "--json", home=isolated_home)
    assert failing.returncode == 1 and json.loads(failing.stdout)["status"] == "fail"
    assert "hint 1/3" in quiz("exercise", "hint", "silu-function", home=isolated_home).stdout
    assert "hint 2/3" in quiz("exercise", "hint", "silu-function", home=isolated_home).stdout
    refused = quiz("exercise", "solution", "silu-function", home=isolated_home, stdin="n\n")
    assert refused.returncode != 0 and "save_for_backward" not in refused.stdout
    shutil.copyfile(SILU / "solution.py", workspace)
    passing = quiz("check", "silu-function", home=isolated_home)
    assert passing.returncode == 0 and "pass" in passing.stdout
    listing = quiz("exercise", "list", home=isolated_home).stdout
    assert any(line.startswith("silu-function") and "passed" in line for line in listing.splitlines())
    assert "save_for_backward" in quiz("exercise", "solution", "silu-function", home=isolated_home).stdout
    reset = quiz("exercise", "reset", "silu-function", "--yes", home=isolated_home)
    assert reset.returncode == 0 and workspace.read_text() == (SILU / "starter.py").read_text()
    assert list(workspace.parent.glob("silu_function.*.bak"))


def test_check_usage_errors_exit_2(isolated_home, tmp_path):
    assert quiz("check", "no-such-exercise", home=isolated_home).returncode == 2
    assert quiz("check", "silu-function", str(tmp_path / "missing.py"), home=isolated_home).returncode == 2


def test_watch_regrades_on_save(isolated_home):
    env = dict(os.environ, QUIZ_HOME=str(isolated_home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "quiz", "--lang", "en", "watch", "silu-function"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = []
    try:
        saved = False
        for line in lines(proc, timeout=90):
            seen.append(line)
            if "fail" in line and not saved:
                time.sleep(0.5)
                shutil.copyfile(SILU / "solution.py", isolated_home / "workspace" / "silu_function.py")
                saved = True
            if "passed! press n" in line:
                proc.stdin.write("q\n")
                proc.stdin.flush()
                break
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert saved and any("passed! press n" in line for line in seen)


def run_watch(home, keys: str, *args) -> str:
    """`quiz watch` fed keys line by line (stdin is a pipe), after the first grade is printed."""
    env = dict(os.environ, QUIZ_HOME=str(home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "quiz", "--lang", "en", "watch", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = []
    try:
        deadline = time.monotonic() + 90
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("keys:") and any("fail" in s for s in seen):
                proc.stdin.write(keys)
                proc.stdin.close()  # end of input quits after the keys
                break
            assert time.monotonic() < deadline, "".join(seen)
        seen += proc.stdout.readlines()
        assert proc.wait(timeout=60) == 0, "".join(seen)
    finally:
        if proc.poll() is None:
            proc.kill()
    return "".join(seen)


def test_watch_resumes_renders_hints_and_prints_the_next_task(isolated_home):
    out = run_watch(isolated_home, "h\nn\n")  # no id: starts at the first exercise of the path
    assert "(silu-function)" in out
    hint = next(line for line in out.splitlines() if line.startswith("hint 1/"))
    assert "`" not in hint and "ctx.save_for_backward(x)" in hint
    assert "(fake-quant-ste)" in out  # moving on shows the next task, prompt included
    out = run_watch(isolated_home, "q\n")  # and a new session resumes there
    assert "(fake-quant-ste)" in out and "(silu-function)" not in out


def test_watch_takes_single_keys_from_a_terminal(isolated_home):
    import pty

    main, child = pty.openpty()
    env = dict(os.environ, QUIZ_HOME=str(isolated_home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "quiz", "--lang", "en", "watch", "silu-function"],
        env=env,
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    os.close(child)
    try:
        keys_lines = 0
        for line in proc.stdout:
            keys_lines += line.startswith("keys:")
            if keys_lines == 2:  # the task's, then the first grade's
                break
        os.write(main, b"h")  # no Enter
        os.write(main, b"q")
        rest = proc.stdout.read()
        assert proc.wait(timeout=60) == 0
        assert "hint 1/3" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


def test_watch_keys_hint_reset_recheck_next_and_quit(isolated_home):
    env = dict(os.environ, QUIZ_HOME=str(isolated_home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "quiz", "--lang", "en", "watch", "silu-function"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    workspace = isolated_home / "workspace" / "silu_function.py"
    steps = [  # (what to wait for, what to type next)
        ("keys:", "h"),
        ("hint 1/3", "h"),
        ("hint 2/3", "r"),
        ("reset to the starter", ""),
        ("checks failed", "n"),  # the re-check after the reset (Enter re-checks too)
        ("watching", "q"),
    ]
    seen = []
    try:
        output = lines(proc, timeout=300)  # a guard against a hang, generous for a loaded machine
        for wanted, typed in steps:
            for line in output:
                seen.append(line)
                if wanted in line:
                    break
            else:
                raise AssertionError(f"never saw {wanted!r}:\n{''.join(seen)}")
            if typed == "r":
                workspace.write_text("my attempt\n")
            proc.stdin.write(typed + "\n")
            proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    except TimeoutError as exc:
        raise AssertionError("".join(seen)) from exc
    finally:
        if proc.poll() is None:
            proc.kill()
    text = "".join(seen)
    assert text.count("hint 1/3") == 2  # the second h shows both hints
    assert workspace.read_text() == (SILU / "starter.py").read_text()
    assert list(workspace.parent.glob("silu_function.*.bak"))
    assert text.count("fail") >= 2  # graded at the start and again on Enter
    assert "watching" in seen[-1] and "silu_function" not in seen[-1]  # the next exercise's file


def test_exercise_verify_passes_a_sound_exercise_and_flags_a_broken_one(isolated_home, tmp_path):
    ok = quiz("exercise", "verify", "silu-function", "--lang", "zh", home=isolated_home, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert re.search(r"[\u4e00-\u9fff]", ok.stdout), "the mutants' messages in the language asked for"
    assert "silu-function/solution.py: pass (want pass)" in ok.stdout
    assert "silu-function/starter.py" in ok.stdout and ok.stdout.count("(want fail)") >= 2
    assert "BAD" not in ok.stdout

    pack = tmp_path / "pack"
    shutil.copytree(
        paths.builtin_content_dir() / "01-pytorch-internals" / "exercises" / "silu-function", pack / "broken"
    )
    spec = (pack / "broken" / "exercise.yaml").read_text(encoding="utf-8")
    (pack / "broken" / "exercise.yaml").write_text(
        spec.replace("id: silu-function", "id: silu-broken", 1), encoding="utf-8"
    )
    shutil.copyfile(pack / "broken" / "starter.py", pack / "broken" / "solution.py")  # a solution that fails
    bad = quiz("--content", str(pack), "exercise", "verify", "silu-broken", home=isolated_home, timeout=300)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "BAD silu-broken/solution.py" in bad.stdout
