def bank_conflict_degree(byte_addresses):
    words_per_bank = {}
    for address in byte_addresses:
        word = address // 4
        words_per_bank.setdefault(word // 32, set()).add(word)
    return max(len(w) for w in words_per_bank.values())
