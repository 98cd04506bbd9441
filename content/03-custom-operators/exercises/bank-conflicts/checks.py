"""Warp access patterns with known conflict degrees (32 banks, 4 bytes wide, 32 lanes)."""

from math import gcd

FLOAT = 4  # bytes


def column_read(pitch, col=0):
    """Lane t reads tile[t][col] of a float tile whose rows are `pitch` floats apart."""
    return [FLOAT * (t * pitch + col) for t in range(32)]


def row_read(pitch, row=0):
    """Lane t reads tile[row][t]."""
    return [FLOAT * (row * pitch + t) for t in range(32)]


def _check(entry, addresses, expected, what):
    got = entry(list(addresses))
    assert got == expected, (
        f"{what}: expected a {expected}-way access (1 = conflict-free), got {got!r}; "
        f"first byte addresses {addresses[:4]}, banks {[(a // 4) % 32 for a in addresses[:4]]}"
    )


def test_row_read_is_conflict_free(entry):
    _check(entry, row_read(32, row=5), 1, "lane t reads tile[5][t] of float tile[32][32] (consecutive words)")


def test_column_read_without_padding(entry):
    _check(entry, column_read(32, col=0), 32,
           "lane t reads tile[t][0] of float tile[32][32]: word 32*t, bank 0 for every lane")
    _check(entry, column_read(32, col=7), 32,
           "lane t reads tile[t][7] of float tile[32][32]: word 32*t + 7, bank 7 for every lane")


def test_column_read_with_padding(entry):
    _check(entry, column_read(33, col=0), 1,
           "lane t reads tile[t][0] of float tile[32][33] (+1 pad): word 33*t, bank t % 32")
    _check(entry, column_read(33, col=9), 1,
           "lane t reads tile[t][9] of float tile[32][33] (+1 pad): bank (t + 9) % 32")
    _check(entry, column_read(34, col=0), 2,
           "lane t reads tile[t][0] of float tile[32][34] (+2 pad): bank 2t % 32, so an even pad only halves the conflict")


def test_strided_words(entry):
    for stride in (1, 2, 3, 4, 8, 16, 17, 32):
        addresses = [FLOAT * stride * t for t in range(32)]
        _check(entry, addresses, gcd(stride, 32),
               f"lane t reads word {stride}*t (byte address {FLOAT * stride}*t)")


def test_broadcast_is_not_a_conflict(entry):
    _check(entry, [FLOAT * 40] * 32, 1, "all 32 lanes read the same word 40 (one broadcast)")
    same_bank_two_words = [FLOAT * 3] * 16 + [FLOAT * 35] * 16
    _check(entry, same_bank_two_words, 2,
           "lanes 0-15 read word 3 and lanes 16-31 read word 35: both in bank 3, two distinct words")
    pairs = [FLOAT * (t // 2) for t in range(32)]
    _check(entry, pairs, 1, "lanes 2k and 2k+1 read the same word k (16 words in 16 banks)")


def test_partial_warp(entry):
    _check(entry, [FLOAT * 32 * t for t in range(5)], 5,
           "only 5 lanes active, lane t reads word 32*t (all bank 0)")
    _check(entry, [FLOAT * 64], 1, "a single active lane")
