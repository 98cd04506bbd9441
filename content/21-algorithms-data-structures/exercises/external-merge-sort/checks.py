"""Files in the check's scratch folder; after each call observe() reports the output's digest, what is left in
tmp_dir and the peak of tracemalloc, because the judge never sees the learner's files."""

import hashlib
import os
import random
import sys
import tempfile
import tracemalloc

from quiz.grader.say import say

_watch = {"out": None, "tmp": None, "written": set(), "hooked": False}
_seen = {}


def _on_audit(event, args):
    """Note every file under tmp_dir opened for writing (open(..., "w"), os.open with O_WRONLY, mkstemp)."""
    if event != "open" or not _watch["tmp"]:
        return
    try:
        path, mode, flags = args
        if isinstance(path, int):
            return
        path = os.path.abspath(os.fsdecode(os.fspath(path)))
        if isinstance(mode, str):
            writes = any(c in mode for c in "wax+")
        else:
            writes = bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        if writes and os.path.dirname(path) == _watch["tmp"]:
            _watch["written"].add(path)
    except Exception:  # noqa: BLE001 - an odd open never breaks the learner's code
        return


def observe():
    out, tmp = _watch["out"], _watch["tmp"]
    peak = tracemalloc.get_traced_memory()[1] if tracemalloc.is_tracing() else 0
    data = b""
    if out and os.path.isfile(out):
        with open(out, "rb") as f:
            data = f.read()
    left = sorted(os.listdir(tmp)) if tmp and os.path.isdir(tmp) else []
    seen = {"sha": hashlib.sha256(data).hexdigest(), "head": data[:200].decode("utf-8", "replace"),
            "lines": data.count(b"\n"), "left": left[:5], "n_left": len(left), "peak": peak,
            "written": len(_watch["written"])}
    restore(seen)  # the test reads _seen in the learner's child too, so both runs make the same calls
    return seen


def restore(seen):
    _seen.clear()
    _seen.update(seen)


def _expected(values):
    return "".join(f"{v}\n" for v in sorted(values)).encode()


def _run(entry, values, max_lines, what, trace=False):
    folder = tempfile.mkdtemp(dir=os.environ.get("TMPDIR") or os.getcwd())  # the scratch folder the fence allows
    in_path, out_path, tmp = (os.path.join(folder, "in.txt"), os.path.join(folder, "out.txt"),
                              os.path.join(folder, "runs"))
    os.mkdir(tmp)
    with open(in_path, "w") as f:
        f.writelines(f"{v}\n" for v in values)
    if not _watch["hooked"]:
        sys.addaudithook(_on_audit)
        _watch["hooked"] = True
    _watch["written"] = set()
    _watch.update(out=out_path, tmp=os.path.abspath(tmp))
    if trace:
        tracemalloc.start()
    try:
        runs = entry(in_path, out_path, max_lines, tmp)
    finally:
        if trace:
            tracemalloc.stop()  # observe() has read the peak by now: it runs right after the call returns
    want = _expected(values)
    if _seen.get("sha") != hashlib.sha256(want).hexdigest():
        got_head = _seen.get("head", "")[:80].replace("\n", " ")
        want_head = want[:80].decode().replace("\n", " ")
        why_en = why_zh = ""
        if _seen.get("lines") == len(values) and sorted(values, key=str) != sorted(values):
            why_en, why_zh = " (string order? compare the values as ints)", "（按字符串排序了？应按 int 比较）"
        elif _seen.get("lines", 0) < len(values):
            why_en, why_zh = " (lines lost: the last, partial chunk?)", "（丢了行：最后那个不满的块？）"
        assert False, say(
            f"{what}: out_path has {_seen.get('lines')} lines starting '{got_head}', expected {len(values)} "
            f"starting '{want_head}'{why_en}",
            f"{what}：out_path 有 {_seen.get('lines')} 行，开头是 '{got_head}'，应为 {len(values)} 行，开头 '{want_head}'{why_zh}",
        )
    return runs


def test_small_files(entry, seed):
    rng = random.Random(seed)
    cases = [([], 3), ([5], 3), ([3, 1, 2], 3), ([10, 9, 100, -1, -20, 0], 2), ([7, 7, 7, 1, 1], 2)]
    cases += [([rng.randint(-50, 50) for _ in range(rng.randint(0, 40))], rng.randint(1, 7)) for _ in range(12)]
    for values, m in cases:
        _run(entry, values, m, f"{len(values)} lines {values[:8]}..., max_lines={m}")


def test_runs_and_cleanup(entry, seed):
    rng = random.Random(seed)
    for n, m in ((0, 4), (1, 4), (12, 4), (13, 4), (100, 7), (50, 100)):
        values = [rng.randint(-1000, 1000) for _ in range(n)]
        runs = _run(entry, values, m, f"{n} lines, max_lines={m}")
        want = -(-n // m)
        assert runs == want, say(
            f"{n} lines, max_lines={m}: returned {runs!r} runs, expected ceil({n}/{m}) = {want} (every chunk but the "
            f"last holds exactly max_lines lines)",
            f"{n} 行，max_lines={m}：返回 {runs!r} 个 run，应为 ceil({n}/{m}) = {want}（除最后一块外每块正好 max_lines 行）",
        )
        assert _seen.get("n_left") == 0, say(
            f"{n} lines, max_lines={m}: {_seen.get('n_left')} files left in tmp_dir ({_seen.get('left')}); delete the "
            f"runs before returning",
            f"{n} 行，max_lines={m}：tmp_dir 里还剩 {_seen.get('n_left')} 个文件（{_seen.get('left')}）；返回前删掉 run",
        )
        written = _seen.get("written", 0)
        assert written <= want + 1, say(
            f"{n} lines, max_lines={m}: {written} files were written in tmp_dir for {want} runs: merge all runs at once "
            f"in one pass (merging two at a time into new files reads and writes the data log2(k) times)",
            f"{n} 行，max_lines={m}：为 {want} 个 run 在 tmp_dir 里写了 {written} 个文件：应一次同时归并所有 run"
            f"（两两归并成新文件要把数据读写 log2(k) 遍）",
        )


def test_memory_bound(entry, seed):
    rng = random.Random(seed)
    n, m = 40_000, 1000
    values = [rng.randint(-10**9, 10**9) for _ in range(n)]
    runs = _run(entry, values, m, f"{n} lines, max_lines={m}", trace=True)
    assert runs == n // m, say(f"{n} lines, max_lines={m}: {runs!r} runs, expected {n // m}",
                               f"{n} 行，max_lines={m}：{runs!r} 个 run，应为 {n // m}")
    peak = _seen.get("peak", 0)
    limit = 1024 * 1024
    assert 0 < peak <= limit, say(
        f"{n} lines, max_lines={m}: Python memory peaked at {peak / 2**20:.1f} MB, the limit is 1 MB: read and merge "
        f"as streams (holding all {n} values takes about 1.5 MB or more)",
        f"{n} 行，max_lines={m}：Python 内存峰值 {peak / 2**20:.1f} MB，上限 1 MB：读入和归并都要流式进行（全部 {n} 个数放进内存要 1.5 MB 以上）",
    )
