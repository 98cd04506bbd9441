def bank_conflict_degree(byte_addresses):
    lanes_per_bank = [0] * 32
    for address in byte_addresses:
        lanes_per_bank[(address // 4) % 32] += 1
    return max(lanes_per_bank)
