"""An independent loop-based 2:4 reference and focused checks."""

import torch

from quiz.grader.say import say


def reference_mask(w):
    out_f, in_f = w.shape
    mask = torch.zeros(out_f, in_f, dtype=torch.bool)
    for r in range(out_f):
        for g in range(0, in_f, 4):
            mags = [abs(float(w[r, g + p])) for p in range(4)]
            ranked = sorted(range(4), key=lambda p: (-mags[p], p))  # larger first, lower position on ties
            for p in ranked[:2]:
                mask[r, g + p] = True
    return mask


def _weights(out_f, in_f, seed):
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(out_f, in_f, generator=gen, dtype=torch.float64) * 4 - 2


def _call(entry, w):
    out = entry(w.clone())
    assert isinstance(out, tuple) and len(out) == 3, say(
        f"sparsify_2_4 should return (mask, values, indices), got {type(out).__name__}",
        f"sparsify_2_4 应返回 (mask, values, indices)，实际返回了 {type(out).__name__}",
    )
    mask, values, indices = out
    assert isinstance(mask, torch.Tensor) and mask.dtype == torch.bool, say("mask should be a torch.bool tensor", "mask 应是 torch.bool 类型的 tensor")
    assert tuple(mask.shape) == tuple(w.shape), say(f"mask should have w's shape {tuple(w.shape)}, got {tuple(mask.shape)}",
                                                    f"mask 应与 w 同形状 {tuple(w.shape)}，实际是 {tuple(mask.shape)}")
    return mask, values, indices


def _first_bad_row(got, want):
    return int((got != want).any(dim=1).nonzero()[0])


def _groups(mask_row):
    return [[p for p in range(4) if bool(mask_row[g + p])] for g in range(0, len(mask_row), 4)]


def test_two_of_every_four(entry):
    w = _weights(8, 16, 0)
    mask, _, _ = _call(entry, w)
    per_group = mask.reshape(8, 4, 4).sum(-1)
    bad = (per_group != 2).nonzero()
    assert len(bad) == 0, say(
        f"every group of 4 consecutive columns must keep exactly 2; row {int(bad[0][0])}, columns "
        f"{4 * int(bad[0][1])}..{4 * int(bad[0][1]) + 3} keep {int(per_group[bad[0][0], bad[0][1]])}",
        f"每组 4 个连续列必须恰好保留 2 个；第 {int(bad[0][0])} 行第 "
        f"{4 * int(bad[0][1])}..{4 * int(bad[0][1]) + 3} 列保留了 {int(per_group[bad[0][0], bad[0][1]])} 个",
    )


def test_matches_reference_on_random_weights(entry):
    w = _weights(8, 16, 1)
    mask, _, _ = _call(entry, w)
    want = reference_mask(w)
    if not torch.equal(mask, want):
        r = int((mask != want).any(dim=1).nonzero()[0])
        raise AssertionError(say(
            f"row {r}: |w| = {[round(abs(v), 3) for v in w[r].tolist()]}; expected kept positions per group "
            f"{_groups(want[r])}, got {_groups(mask[r])}",
            f"第 {r} 行：|w| = {[round(abs(v), 3) for v in w[r].tolist()]}；每组保留的位置应为 "
            f"{_groups(want[r])}，实际是 {_groups(mask[r])}",
        ))


def test_magnitude_not_sign(entry):
    w = torch.tensor([[-5.0, 1.0, 2.0, 0.5, 0.1, -0.2, -3.0, 0.3]], dtype=torch.float64)
    mask, _, _ = _call(entry, w)
    assert _groups(mask[0]) == [[0, 2], [2, 3]], say(
        f"for w = {w[0].tolist()} the largest magnitudes are at positions [0, 2] and [2, 3] of the two groups "
        f"(-5 and -3 are large); got {_groups(mask[0])}",
        f"对 w = {w[0].tolist()}，两组中绝对值最大的分别在位置 [0, 2] 和 [2, 3]"
        f"（-5 和 -3 的绝对值很大）；实际是 {_groups(mask[0])}",
    )


def test_ties_keep_lower_positions(entry):
    w = torch.tensor([[1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, -2.0, 1.0, 2.0, 0.5, 3.0, 0.5, 0.5]],
                     dtype=torch.float64)
    mask, _, _ = _call(entry, w)
    want = [[0, 1], [0, 1], [0, 1], [0, 1]]  # all equal; all zero; |2| three times; 3.0 then 0.5 three times
    assert _groups(mask[0]) == want, say(
        f"for w = {w[0].tolist()} with ties broken toward the lower position the kept positions are {want}; "
        f"got {_groups(mask[0])}",
        f"对 w = {w[0].tolist()}，并列时取位置靠前的，保留的位置应为 {want}；实际是 {_groups(mask[0])}",
    )


def test_compressed_values_and_indices(entry):
    w = _weights(4, 12, 2)
    mask, values, indices = _call(entry, w)
    want = reference_mask(w)
    assert tuple(values.shape) == (4, 6) and tuple(indices.shape) == (4, 6), say(
        f"values and indices should both have shape (4, 6) = (out, in // 2), got {tuple(values.shape)} and "
        f"{tuple(indices.shape)}",
        f"values 和 indices 的形状都应为 (4, 6) = (out, in // 2)，实际是 {tuple(values.shape)} 和 "
        f"{tuple(indices.shape)}",
    )
    want_idx = torch.tensor([[p for grp in _groups(want[r]) for p in grp] for r in range(4)])
    got_idx = indices.to(torch.int64)
    if not torch.equal(got_idx, want_idx):
        r = _first_bad_row(got_idx, want_idx)
        raise AssertionError(say(
            f"indices should hold each kept weight's position 0..3 in its group, ascending within the group: "
            f"row {r} expected {want_idx[r].tolist()}, got {got_idx[r].tolist()}",
            f"indices 应存每个保留权重在组内的位置 0..3，组内升序："
            f"第 {r} 行应为 {want_idx[r].tolist()}，实际是 {got_idx[r].tolist()}",
        ))
    want_vals = w[want].reshape(4, 6)
    got_vals = values.to(w.dtype)
    if not torch.equal(got_vals, want_vals):
        r = _first_bad_row(got_vals, want_vals)
        raise AssertionError(say(
            f"values should be the kept weights (with their sign), in position order: row {r} expected "
            f"{[round(v, 4) for v in want_vals[r].tolist()]}, got {[round(v, 4) for v in got_vals[r].tolist()]}",
            f"values 应是保留下来的权重（带符号），按位置顺序排列：第 {r} 行应为 "
            f"{[round(v, 4) for v in want_vals[r].tolist()]}，实际是 {[round(v, 4) for v in got_vals[r].tolist()]}",
        ))
    # decompress: put the values back at 4 * group + index
    dense = torch.zeros_like(w)
    cols = (torch.arange(6) // 2 * 4).unsqueeze(0) + indices.to(torch.int64)
    dense.scatter_(1, cols, values.to(w.dtype))
    assert torch.equal(dense, w * want), say("scattering values back at 4 * group + index does not rebuild w * mask",
                                         "把 values 按 4 * group + index 放回去，得不到 w * mask")


def test_rejects_width_not_multiple_of_4(entry):
    try:
        entry(torch.ones(2, 6, dtype=torch.float64))
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(say(f"in_features = 6 should raise ValueError, but raised {type(exc).__name__}: {exc}",
                                 f"in_features = 6 应抛出 ValueError，实际抛出了 {type(exc).__name__}: {exc}"))
    raise AssertionError(say("in_features = 6 is not a multiple of 4: raise ValueError instead of returning",
                             "in_features = 6 不是 4 的倍数：应抛出 ValueError，而不是正常返回"))
