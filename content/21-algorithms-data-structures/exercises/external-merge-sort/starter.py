import heapq  # noqa: F401
import os  # noqa: F401


def external_sort(in_path, out_path, max_lines, tmp_dir):
    """Sort the integers of in_path (one per line) into out_path, holding at most max_lines in memory.

    Returns the number of sorted runs written to tmp_dir (all deleted before returning).
    """
    # TODO: cut sorted runs of max_lines values into tmp_dir, then heapq.merge them into out_path
    raise NotImplementedError("external_sort")
