def bank_conflict_degree(byte_addresses):
    words_per_bank = {}
    for address in byte_addresses:
        bank = address % 32
        words_per_bank.setdefault(bank, set()).add(address)
    return max(len(w) for w in words_per_bank.values())
