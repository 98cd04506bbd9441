import heapq
import os


def _write_run(chunk, tmp_dir, index):
    chunk.sort()
    path = os.path.join(tmp_dir, f"run-{index:05d}.txt")
    with open(path, "w") as f:
        f.writelines(f"{v}\n" for v in chunk)
    return path


def external_sort(in_path, out_path, max_lines, tmp_dir):
    runs = []
    try:
        chunk = []
        with open(in_path) as f:
            for line in f:
                chunk.append(int(line))
                if len(chunk) == max_lines:
                    runs.append(_write_run(chunk, tmp_dir, len(runs)))
                    chunk = []
        if chunk:
            runs.append(_write_run(chunk, tmp_dir, len(runs)))
        files = [open(p) for p in runs]
        try:
            with open(out_path, "w") as out:
                for v in heapq.merge(*[(int(x) for x in rf) for rf in files]):
                    out.write(f"{v}\n")
        finally:
            for rf in files:
                rf.close()
        return len(runs)
    finally:
        pass
