import os


def external_sort(in_path, out_path, max_lines, tmp_dir):
    with open(in_path) as f:
        values = sorted(int(x) for x in f.readlines())
    with open(out_path, "w") as out:
        out.writelines(f"{v}\n" for v in values)
    return -(-len(values) // max_lines)
