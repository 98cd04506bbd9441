"""Warp access patterns with known conflict degrees (32 banks, 4 bytes wide, 32 lanes)."""

from math import gcd

from quiz.grader.say import say

FLOAT = 4  # bytes


def column_read(pitch, col=0):
    """Lane t reads tile[t][col] of a float tile whose rows are `pitch` floats apart."""
    return [FLOAT * (t * pitch + col) for t in range(32)]


def row_read(pitch, row=0):
    """Lane t reads tile[row][t]."""
    return [FLOAT * (row * pitch + t) for t in range(32)]


def _check(entry, addresses, expected, what):
    got = entry(list(addresses))
    banks = [(a // 4) % 32 for a in addresses[:4]]
    assert got == expected, say(
        f"{what}: expected a {expected}-way access (1 = conflict-free), got {got!r}; "
        f"first byte addresses {addresses[:4]}, banks {banks}",
        f"{what}：应为 {expected}-way 访问（1 = 无冲突），实际是 {got!r}；"
        f"前几个字节地址 {addresses[:4]}，bank {banks}",
    )


def test_row_read_is_conflict_free(entry):
    _check(entry, row_read(32, row=5), 1, say("lane t reads tile[5][t] of float tile[32][32] (consecutive words)",
                                                     "lane t 读 float tile[32][32] 的 tile[5][t]（连续的 word）"))


def test_column_read_without_padding(entry):
    _check(entry, column_read(32, col=0), 32,
           say("lane t reads tile[t][0] of float tile[32][32]: word 32*t, bank 0 for every lane",
               "lane t 读 float tile[32][32] 的 tile[t][0]：word 32*t，每个 lane 都在 bank 0"))
    _check(entry, column_read(32, col=7), 32,
           say("lane t reads tile[t][7] of float tile[32][32]: word 32*t + 7, bank 7 for every lane",
               "lane t 读 float tile[32][32] 的 tile[t][7]：word 32*t + 7，每个 lane 都在 bank 7"))


def test_column_read_with_padding(entry):
    _check(entry, column_read(33, col=0), 1,
           say("lane t reads tile[t][0] of float tile[32][33] (+1 pad): word 33*t, bank t % 32",
               "lane t 读 float tile[32][33]（+1 padding）的 tile[t][0]：word 33*t，bank t % 32"))
    _check(entry, column_read(33, col=9), 1,
           say("lane t reads tile[t][9] of float tile[32][33] (+1 pad): bank (t + 9) % 32",
               "lane t 读 float tile[32][33]（+1 padding）的 tile[t][9]：bank (t + 9) % 32"))
    _check(entry, column_read(34, col=0), 2,
           say("lane t reads tile[t][0] of float tile[32][34] (+2 pad): bank 2t % 32, so an even pad only halves the conflict",
               "lane t 读 float tile[32][34]（+2 padding）的 tile[t][0]：bank 2t % 32，所以偶数 padding 只能把冲突减半"))


def test_strided_words(entry):
    for stride in (1, 2, 3, 4, 8, 16, 17, 32):
        addresses = [FLOAT * stride * t for t in range(32)]
        _check(entry, addresses, gcd(stride, 32),
               say(f"lane t reads word {stride}*t (byte address {FLOAT * stride}*t)",
                   f"lane t 读 word {stride}*t（字节地址 {FLOAT * stride}*t）"))


def test_broadcast_is_not_a_conflict(entry):
    _check(entry, [FLOAT * 40] * 32, 1, say("all 32 lanes read the same word 40 (one broadcast)",
                                                 "32 个 lane 都读同一个 word 40（一次 broadcast）"))
    same_bank_two_words = [FLOAT * 3] * 16 + [FLOAT * 35] * 16
    _check(entry, same_bank_two_words, 2,
           say("lanes 0-15 read word 3 and lanes 16-31 read word 35: both in bank 3, two distinct words",
               "lane 0-15 读 word 3，lane 16-31 读 word 35：两者都在 bank 3，是两个不同的 word"))
    pairs = [FLOAT * (t // 2) for t in range(32)]
    _check(entry, pairs, 1, say("lanes 2k and 2k+1 read the same word k (16 words in 16 banks)",
                                 "lane 2k 和 2k+1 读同一个 word k（16 个 word 分布在 16 个 bank）"))


def test_partial_warp(entry):
    _check(entry, [FLOAT * 32 * t for t in range(5)], 5,
           say("only 5 lanes active, lane t reads word 32*t (all bank 0)",
               "只有 5 个 lane 活跃，lane t 读 word 32*t（全在 bank 0）"))
    _check(entry, [FLOAT * 64], 1, say("a single active lane", "只有一个活跃 lane"))
