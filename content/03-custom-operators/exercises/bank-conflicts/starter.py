NUM_BANKS = 32
BANK_BYTES = 4


def bank_conflict_degree(byte_addresses):
    """The n of an n-way shared-memory bank conflict for one warp-wide 4-byte load.

    byte_addresses: one 4-byte-aligned shared-memory byte address per active lane.
    Returns the largest number of *distinct* 32-bit words that fall in one bank
    (1 = conflict-free; lanes reading the same word are served by one broadcast).
    """
    # TODO: byte address -> 32-bit word -> bank; per bank count the distinct words; return the maximum
    raise NotImplementedError("bank_conflict_degree")
