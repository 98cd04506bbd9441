"""An independent Q4_0 reference (llama.cpp's quantize_row_q4_0_ref and dequantize_row_q4_0) and the tests."""

import torch

from quiz.grader.say import say

_floor = torch.floor  # taken when the checks load, before any learner code runs
_round = torch.round

QK = 32


def _blocks(x):
    return x.to(torch.float32).reshape(-1, QK)


def reference_codes(x):
    """(d as float32 before the fp16 cast, 4-bit codes (nb, 32) in element order)."""
    b = _blocks(x)
    idx = b.abs().argmax(dim=1, keepdim=True)  # the first element of largest magnitude
    signed_max = b.gather(1, idx).squeeze(1)
    d = signed_max / -8
    inv = torch.where(d != 0, 1.0 / d, torch.zeros_like(d))
    codes = _floor(b * inv[:, None] + 8.5).clamp(max=15)
    return d, codes.to(torch.uint8)


def pack(codes):
    """Byte j of a block: element j in the low nibble, element j + 16 in the high nibble."""
    return codes[:, : QK // 2] | (codes[:, QK // 2 :] << 4)


def unpack(qs):
    return torch.cat([qs & 0x0F, qs >> 4], dim=1)


def reference_quantize(x):
    d, codes = reference_codes(x)
    return d.to(torch.float16), pack(codes)


def reference_dequantize(d, qs):
    return ((unpack(qs).to(torch.float32) - 8) * d.to(torch.float32)[:, None]).reshape(-1)


def data(n_blocks, seed):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n_blocks * QK, generator=gen, dtype=torch.float32)
    x[5] = 9.0  # an outlier: only its own block pays for it
    return x


def _pair(out, n_blocks):
    assert isinstance(out, (tuple, list)) and len(out) == 2, say(
        f"quantize should return a pair (d, qs), got {type(out).__name__}",
        f"quantize 应返回二元组 (d, qs)，实际返回了 {type(out).__name__}",
    )
    d, qs = out
    assert isinstance(d, torch.Tensor) and isinstance(qs, torch.Tensor), say(
        f"d and qs should be tensors, got {type(d).__name__} and {type(qs).__name__}",
        f"d 和 qs 应是 tensor，实际是 {type(d).__name__} 和 {type(qs).__name__}",
    )
    assert d.dtype == torch.float16 and tuple(d.shape) == (n_blocks,), say(
        f"d should be a float16 tensor of shape ({n_blocks},), one scale per block (ggml_half d), "
        f"got {d.dtype} {tuple(d.shape)}",
        f"d 应是形状 ({n_blocks},) 的 float16 tensor，每块一个 scale（ggml_half d），实际是 {d.dtype} {tuple(d.shape)}",
    )
    assert qs.dtype == torch.uint8 and tuple(qs.shape) == (n_blocks, QK // 2), say(
        f"qs should be a uint8 tensor of shape ({n_blocks}, 16): 32 four-bit codes packed two per byte, "
        f"got {qs.dtype} {tuple(qs.shape)}",
        f"qs 应是形状 ({n_blocks}, 16) 的 uint8 tensor：32 个 4 位码值，每字节两个，实际是 {qs.dtype} {tuple(qs.shape)}",
    )
    return d, qs


def _scale_mistake(d, x):
    b = _blocks(x)
    amax = b.abs().amax(dim=1)
    ref, _ = reference_codes(x)
    if torch.equal(d, (-ref).to(torch.float16)):
        return say(" (that is -d: llama.cpp divides the signed max by -8, so the largest-magnitude value gets code 0)",
                   "（这是 -d：llama.cpp 用带符号的最大值除以 -8，让绝对值最大的元素得到码值 0）")
    for k in (7, 7.5, 8, 15):
        if torch.equal(d.abs(), (amax / k).to(torch.float16)):
            return say(f" (|d| is amax / {k}; Q4_0 uses d = max / -8 where max is the signed value of largest magnitude)",
                       f"（|d| 是 amax / {k}；Q4_0 用 d = max / -8，max 是绝对值最大的那个元素本身，带符号）")
    return ""


def _codes_mistake(qs, x):
    d, ref = reference_codes(x)
    codes = unpack(qs)
    inv = torch.where(d != 0, 1.0 / d, torch.zeros_like(d))
    unclamped = _floor(_blocks(x) * inv[:, None] + 8.5).to(torch.uint8)
    if torch.equal(qs, pack(unclamped)):
        return say(" (a code of 16 was not clamped: MIN(15, ...) keeps it in the nibble; unclamped it spills into the "
                   "other element's nibble or falls off the byte)",
                   "（码值 16 没有截断：MIN(15, ...) 让它留在 4 位之内；不截断就会溢出到另一个元素的 4 位，或被挤出字节）")
    adjacent = ref.reshape(-1, QK // 2, 2).transpose(1, 2).reshape(-1, QK)
    if torch.equal(codes, adjacent):
        return say(" (that is elements 2j and 2j+1 in byte j; Q4_0 puts element j in the low nibble and j + 16 in the high one)",
                   "（这是把第 2j、2j+1 个元素放进第 j 个字节；Q4_0 把第 j 个元素放在低 4 位，第 j+16 个放在高 4 位）")
    if torch.equal(codes, torch.cat([ref[:, 16:], ref[:, :16]], dim=1)):
        return say(" (the nibbles are swapped: element j goes in the low nibble, element j + 16 in the high nibble)",
                   "（高低 4 位反了：第 j 个元素在低 4 位，第 j+16 个在高 4 位）")
    diff = (codes.to(torch.int16) - ref.to(torch.int16)).abs()
    if int(diff.max()) == 1:
        return say(" (off by one in places: round as llama.cpp does, floor(x * id + 8.5) with id = 1 / d, then MIN(15, ...))",
                   "（部分码值差 1：按 llama.cpp 的方式舍入，floor(x * id + 8.5)，id = 1 / d，再取 MIN(15, ...)）")
    return ""


def _compare_quantize(entry, x, note="", note_block=None):
    n_blocks = x.numel() // QK
    d, qs = _pair(entry.quantize(x.clone()), n_blocks)
    want_d, want_qs = reference_quantize(x)
    bad = (d != want_d).nonzero().flatten().tolist()
    note = note if note_block is None or note_block in bad else ""
    assert not bad, say(
        f"d is wrong for block(s) {bad[:6]}: expected {want_d[bad[:3]].tolist()}, got {d[bad[:3]].tolist()}"
        f"{_scale_mistake(d, x)}{note}",
        f"第 {bad[:6]} 块的 d 不对：应为 {want_d[bad[:3]].tolist()}，实际是 {d[bad[:3]].tolist()}{_scale_mistake(d, x)}{note}",
    )
    bad = (qs != want_qs).any(dim=1).nonzero().flatten().tolist()
    note = note if note_block is None or note_block in bad else ""
    if bad:
        b = bad[0]
        assert False, say(
            f"qs is wrong in block(s) {bad[:6]}; block {b}: expected {want_qs[b].tolist()}, got {qs[b].tolist()}"
            f"{_codes_mistake(qs, x)}{note}",
            f"第 {bad[:6]} 块的 qs 不对；第 {b} 块应为 {want_qs[b].tolist()}，实际是 {qs[b].tolist()}"
            f"{_codes_mistake(qs, x)}{note}",
        )


def test_packed_size(entry):
    n_blocks = 4
    d, qs = _pair(entry.quantize(data(n_blocks, 1)), n_blocks)
    nbytes = d.numel() * d.element_size() + qs.numel() * qs.element_size()
    assert nbytes == 18 * n_blocks, say(
        f"{n_blocks} blocks should take {18 * n_blocks} bytes (2 for the fp16 d + 16 for 32 nibbles = 4.5 bits per weight), "
        f"got {nbytes}",
        f"{n_blocks} 块应占 {18 * n_blocks} 字节（fp16 的 d 2 字节 + 32 个 4 位码值 16 字节 = 每个权重 4.5 位），实际是 {nbytes}",
    )


def test_matches_llama_cpp(entry):
    _compare_quantize(entry, data(8, 2))


def test_halves_round_up(entry):
    # d = -8 / -8 = 1, so x * id + 8.5 is exact: x = k + 0.5 must give code k + 9
    x = torch.tensor([-8.0, 0.5, -0.5, 2.5, -3.5, 1.5, 6.5, -7.5] * 4)
    _compare_quantize(entry, x, say(
        ". llama.cpp computes (int8_t)(x * id + 8.5f), so a value exactly halfway goes up; "
        "torch.round rounds halves to even",
        "。llama.cpp 计算 (int8_t)(x * id + 8.5f)，恰好在中点的值向上取；torch.round 是四舍六入五成双"))


def test_opposite_extreme_clamps(entry):
    # the first largest-magnitude value picks the sign of d; the same magnitude of the other sign gives
    # x * id + 8.5 = 16.5, which MIN(15, ...) keeps inside the nibble
    x = torch.zeros(2 * QK)
    x[3], x[20] = 4.0, -4.0
    x[QK + 3], x[QK + 20] = -4.0, 4.0
    x[7], x[QK + 9] = 1.0, -1.0
    _compare_quantize(entry, x, say(
        ". In block 0 the first value of largest magnitude is +4, so d = 4 / -8 = -0.5 and -4 lands on 16.5: "
        "clamp the code to 15 (a 16 would spill into the other nibble)",
        "。第 0 块里第一个绝对值最大的是 +4，所以 d = 4 / -8 = -0.5，-4 算出 16.5："
        "码值要截到 15（16 会溢出到另一个 4 位）"))


def test_zero_block(entry):
    x = data(3, 3)
    x[QK: 2 * QK] = 0.0
    _compare_quantize(entry, x, say(
        ". An all-zero block has d = 0; llama.cpp then uses id = 0 (not 1 / 0), so every code is 8",
        "。全零的块 d = 0；此时 llama.cpp 取 id = 0（而不是 1 / 0），所以每个码值都是 8"), note_block=1)


def test_dequantize(entry):
    x = data(4, 4)
    d, qs = reference_quantize(x)
    got = entry.dequantize(d.clone(), qs.clone())
    want = reference_dequantize(d, qs)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32 and tuple(got.shape) == tuple(want.shape), say(
        f"dequantize should return a float32 tensor of shape {tuple(want.shape)}, got "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}",
        f"dequantize 应返回形状 {tuple(want.shape)} 的 float32 tensor，实际是 "
        f"{getattr(got, 'dtype', type(got).__name__)} {tuple(getattr(got, 'shape', ()))}",
    )
    if torch.equal(got, want):
        return
    hint = ""
    codes = unpack(qs).to(torch.float32)
    if torch.equal(got, (codes * d.float()[:, None]).reshape(-1)):
        hint = say(" (the offset is missing: value = (code - 8) * d)", "（少了偏移：值 = (码值 - 8) * d）")
    elif torch.equal(got, ((codes.reshape(-1, 2, 16).transpose(1, 2).reshape(-1, QK) - 8) * d.float()[:, None]).reshape(-1)):
        hint = say(" (the nibbles were read as adjacent pairs: byte j holds element j (low) and element j + 16 (high))",
                   "（把 4 位码值当作相邻的一对来读了：第 j 个字节存第 j 个元素（低 4 位）和第 j+16 个元素（高 4 位））")
    elif torch.equal(got, ((torch.cat([qs >> 4, qs & 0x0F], 1).float() - 8) * d.float()[:, None]).reshape(-1)):
        hint = say(" (the nibbles are swapped: the low nibble is element j, the high nibble element j + 16)",
                   "（高低 4 位反了：低 4 位是第 j 个元素，高 4 位是第 j+16 个）")
    bad = (got != want).nonzero().flatten().tolist()
    assert False, say(
        f"dequantize is wrong at element(s) {bad[:6]}: expected {want[bad[:3]].tolist()}, got {got[bad[:3]].tolist()}{hint}",
        f"dequantize 在第 {bad[:6]} 个元素处不对：应为 {want[bad[:3]].tolist()}，实际是 {got[bad[:3]].tolist()}{hint}",
    )


def test_round_trip_error(entry):
    x = data(16, 5)
    d, qs = _pair(entry.quantize(x.clone()), 16)
    back = entry.dequantize(d, qs)
    assert isinstance(back, torch.Tensor) and tuple(back.shape) == tuple(x.shape), say(
        f"dequantize(quantize(x)) should have x's shape {tuple(x.shape)}", f"dequantize(quantize(x)) 的形状应与 x 相同 {tuple(x.shape)}")
    err = (back.double() - x.double()).reshape(-1, QK).abs()
    step = d.double().abs()[:, None]
    # rounding costs at most half a step; the one value clamped from +8 steps to +7 costs at most one step;
    # storing d in fp16 moves a code-8 value by at most 8 * |d| * 2^-11
    clamped = (x.double().reshape(-1, QK) / -_blocks(x).double().gather(
        1, _blocks(x).abs().argmax(1, keepdim=True)) * 8) > 7.5
    bound = torch.where(clamped, step, step / 2) + 8 * step * 2.0 ** -11 + 1e-7
    worst = float((err - bound).max())
    assert worst <= 0, say(
        f"the round trip is off by more than Q4_0 allows (half a step |d| / 2 per value, a whole step for a value "
        f"clamped at code 15) by up to {worst:.3g}",
        f"往返误差超出了 Q4_0 允许的范围（每个值半步 |d| / 2，被截到码值 15 的值一整步），最多超出 {worst:.3g}",
    )


def test_rejects_partial_block(entry):
    try:
        entry.quantize(torch.ones(40))
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(say(f"a length of 40 should raise ValueError, not {type(exc).__name__}",
                                 f"长度 40 应抛出 ValueError，而不是 {type(exc).__name__}")) from None
    raise AssertionError(say("a length of 40 is not a whole number of 32-value blocks: raise ValueError",
                             "长度 40 不是 32 的整数倍：应抛出 ValueError"))
