def one_f_one_b(p, m):
    """Non-interleaved 1F1B: for each of p stages, its ordered list of ("F", i) and ("B", i) ops over m micro-batches."""
    # TODO: warm-up forwards, then alternate one forward and one backward, then drain the backwards
    raise NotImplementedError("one_f_one_b")
