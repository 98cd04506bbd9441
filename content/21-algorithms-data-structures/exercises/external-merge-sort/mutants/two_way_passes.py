# Wrong: merges the runs two at a time into new run files, pass after pass, instead of all at once: right
# output, but the data is read and written log2(k) times.
import heapq
import itertools
import os


def _write(path, values):
    with open(path, "w") as f:
        for v in values:
            f.write(f"{v}\n")


def _ints(path):
    with open(path) as f:
        for line in f:
            yield int(line)


def external_sort(in_path, out_path, max_lines, tmp_dir):
    runs = []
    with open(in_path) as f:
        while True:
            chunk = [int(x) for x in itertools.islice(f, max_lines)]
            if not chunk:
                break
            chunk.sort()
            p = os.path.join(tmp_dir, f"run{len(runs)}")
            _write(p, chunk)
            runs.append(p)
    count = len(runs)
    gen = count
    # two-way merge passes
    while len(runs) > 1:
        nxt = []
        for i in range(0, len(runs), 2):
            if i + 1 == len(runs):
                nxt.append(runs[i])
                continue
            p = os.path.join(tmp_dir, f"run{gen}")
            gen += 1
            _write(p, heapq.merge(_ints(runs[i]), _ints(runs[i + 1])))
            os.remove(runs[i]); os.remove(runs[i + 1])
            nxt.append(p)
        runs = nxt
    if runs:
        _write(out_path, _ints(runs[0]))
        os.remove(runs[0])
    else:
        open(out_path, "w").close()
    return count
