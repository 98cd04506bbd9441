def kmp_search(text, pattern):
    """Start index of every (also overlapping) occurrence of `pattern` in `text`, ascending.

    Compare elements only with ==; O(len(text) + len(pattern)) comparisons.
    """
    # TODO: build the prefix function of `pattern`, then scan `text` once without moving back
    raise NotImplementedError("kmp_search")
