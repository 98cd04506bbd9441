"""Roofline figures for GEMMs and elementwise ops on A100-like limits, with the usual counting slips named."""

import math

from quiz.grader.say import say

KEYS = ("flops", "bytes", "intensity", "ridge", "bound", "attainable")
A100 = (312e12, 2.039e12)  # dense FP16/BF16 tensor-core FLOP/s, HBM bytes/s of an A100 SXM 80 GB


def _counts(op, flops_scale=2, with_output=True, dtype=True, read_c=False):
    size = op["dtype_bytes"] if dtype else 1
    if op["kind"] == "gemm":
        m, n, k = op["M"], op["N"], op["K"]
        c_passes = (1 if with_output else 0) + (1 if read_c else 0)
        return flops_scale * m * n * k, (m * k + k * n + c_passes * m * n) * size
    n, ins = op["n"], op["inputs"]
    return n * op["flops_per_element"], n * (ins + (1 if with_output else 0)) * size


def _figures(flops, nbytes, peak, bw, strict_at_ridge=False, capped=True, ridge_inverted=False):
    ai = flops / nbytes
    ridge = bw / peak if ridge_inverted else peak / bw
    memory = ai <= ridge if strict_at_ridge else ai < ridge
    attainable = min(peak, ai * bw) if capped else ai * bw
    return {"flops": flops, "bytes": nbytes, "intensity": ai, "ridge": ridge,
            "bound": "memory" if memory else "compute", "attainable": attainable}


def reference(op, peak, bw):
    return _figures(*_counts(op), peak, bw)


def _mistakes(op, peak, bw):
    """(figures, explanation) for each usual wrong answer."""
    flip = dict(reference(op, peak, bw))
    flip["bound"] = "compute" if flip["bound"] == "memory" else "memory"
    return [
        (_figures(*_counts(op, flops_scale=1), peak, bw), say(
            "the FLOPs are M·N·K: each multiply-add is 2 FLOPs, so a GEMM does 2·M·N·K",
            "FLOPs 算成了 M·N·K：每次乘加是 2 个 FLOP，GEMM 是 2·M·N·K")),
        (_figures(*_counts(op, with_output=False), peak, bw), say(
            "the bytes leave out the output: the result (M·N for a GEMM, n elements for an elementwise op) is written to memory too",
            "字节数漏了输出：结果（GEMM 的 M·N，逐元素算子的 n 个元素）也要写回显存")),
        (_figures(*_counts(op, read_c=True), peak, bw), say(
            "the bytes count C twice, read and written (C += A @ B, beta = 1); this contract's C = A @ B only writes C: "
            "(M·K + K·N + M·N) × dtype_bytes",
            "字节数把 C 算了两次，读一次写一次（C += A @ B，beta = 1）；本题的 C = A @ B 只写 C：(M·K + K·N + M·N) × dtype_bytes")),
        (_figures(*_counts(op, dtype=False), peak, bw), say(
            "the bytes are counted in elements: multiply the element count by dtype_bytes (2 for fp16/bf16, 4 for fp32)",
            "字节数按元素个数算了：元素个数要乘 dtype_bytes（fp16/bf16 为 2，fp32 为 4）")),
        (_figures(*_counts(op), peak, bw, strict_at_ridge=True), say(
            "at exactly the ridge point the contract says compute-bound (memory-bound only when intensity < ridge); "
            "the comparison used <=",
            "正好在 ridge point 上时按约定算 compute-bound（只有 intensity < ridge 才是 memory-bound）；比较用成了 <=")),
        (_figures(*_counts(op), peak, bw, ridge_inverted=True), say(
            "the ridge is inverted, bandwidth / peak: the ridge point is in FLOP per byte, peak FLOP/s divided by bytes/s",
            "ridge 倒过来了，算成了 带宽 / 峰值：ridge point 的单位是 FLOP/byte，是 峰值 FLOP/s 除以 字节/s")),
        (flip, say("the classification is reversed: below the ridge point the bandwidth roof binds (memory-bound), at or above it the compute roof (compute-bound)",
                   "分类反了：低于 ridge point 时限制它的是带宽那条屋顶（memory-bound），达到或高于 ridge point 时是算力屋顶（compute-bound）")),
        (_figures(*_counts(op), peak, bw, capped=False), say(
            "attainable FLOP/s above the peak: the roofline is min(peak, intensity × bandwidth)",
            "可达 FLOP/s 超过了峰值：roofline 是 min(peak, intensity × bandwidth)")),
    ]


def _same(a, b):
    if isinstance(b, str):
        return a == b
    return math.isclose(float(a), b, rel_tol=1e-9, abs_tol=1e-12)


def _describe(op, peak, bw):
    if op["kind"] == "gemm":
        text = f"GEMM M={op['M']}, N={op['N']}, K={op['K']}, {op['dtype_bytes']} B/element"
        zh = f"GEMM M={op['M']}，N={op['N']}，K={op['K']}，每元素 {op['dtype_bytes']} B"
    else:
        text = (f"elementwise n={op['n']}, {op['inputs']} input(s), {op['flops_per_element']} FLOP/element, "
                f"{op['dtype_bytes']} B/element")
        zh = (f"逐元素 n={op['n']}，{op['inputs']} 个输入，每元素 {op['flops_per_element']} FLOP，"
              f"每元素 {op['dtype_bytes']} B")
    tail = f", peak {peak:.4g} FLOP/s, {bw:.4g} B/s"
    return text + tail, zh + f"，峰值 {peak:.4g} FLOP/s，带宽 {bw:.4g} B/s"


def _expect(entry, op, peak, bw, keys=KEYS):
    got = entry(dict(op), peak, bw)
    assert isinstance(got, dict), say(f"roofline should return a dict, got {type(got).__name__}",
                                      f"roofline 应返回 dict，实际返回了 {type(got).__name__}")
    missing = [k for k in KEYS if k not in got]
    assert not missing, say(f"the returned dict lacks {missing}", f"返回的 dict 缺少 {missing}")
    for k in KEYS:
        v = got[k]
        if k == "bound":
            assert v in ("memory", "compute"), say(f"bound should be \"memory\" or \"compute\", got {v!r}",
                                                    f"bound 应为 \"memory\" 或 \"compute\"，实际是 {v!r}")
        else:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            assert ok, say(f"{k} should be a finite number, got {v!r}", f"{k} 应为有限的数，实际是 {v!r}")
    want = reference(op, peak, bw)
    case_en, case_zh = _describe(op, peak, bw)
    for k in keys:
        if _same(got[k], want[k]):
            continue
        upto = KEYS[: KEYS.index(k) + 1]  # a slip explains the output only if everything up to k matches it
        why = next((text for values, text in _mistakes(op, peak, bw)
                    if all(_same(got[j], values[j]) for j in upto)), "")
        shown_w = want[k] if isinstance(want[k], str) else f"{want[k]:.6g}"
        shown_g = got[k] if isinstance(got[k], str) else f"{got[k]:.6g}"
        raise AssertionError(say(f"{case_en}: expected {k} = {shown_w}, got {shown_g}. {why}",
                                 f"{case_zh}：{k} 应为 {shown_w}，实际是 {shown_g}。{why}").rstrip())


def _gemm(m, n, k, size):
    return {"kind": "gemm", "M": m, "N": n, "K": k, "dtype_bytes": size}


def _elementwise(n, inputs, fpe, size):
    return {"kind": "elementwise", "n": n, "inputs": inputs, "flops_per_element": fpe, "dtype_bytes": size}


def test_gemm_counts(entry):
    # 2 * 64 * 32 * 16 = 65536 FLOPs; (64*16 + 16*32 + 64*32) * 4 = 14336 bytes
    _expect(entry, _gemm(64, 32, 16, 4), *A100, keys=("flops", "bytes", "intensity"))
    _expect(entry, _gemm(4096, 4096, 4096, 2), *A100, keys=("flops", "bytes", "intensity"))


def test_elementwise_counts(entry):
    # x + y in fp32: 1 FLOP and 12 bytes (two reads, one write) per element
    _expect(entry, _elementwise(1 << 20, 2, 1, 4), *A100, keys=("flops", "bytes", "intensity"))
    # a fused bias + GELU in bf16, counted as 10 FLOPs per element
    _expect(entry, _elementwise(3 * 1024 * 1024, 2, 10, 2), *A100, keys=("flops", "bytes", "intensity"))


def test_ridge_point(entry):
    # 312e12 / 2.039e12 = 153 FLOP per byte
    _expect(entry, _gemm(64, 32, 16, 4), *A100, keys=("ridge",))
    _expect(entry, _gemm(64, 32, 16, 4), 989e12, 3.35e12, keys=("ridge",))


def test_large_gemm_is_compute_bound(entry):
    # intensity 4096 / 3 = 1365 FLOP/B, far right of the ridge: attainable = peak
    _expect(entry, _gemm(4096, 4096, 4096, 2), *A100)


def test_decode_gemv_is_memory_bound(entry):
    # one token through a 4096 x 4096 fp16 weight: about 1 FLOP per byte
    _expect(entry, _gemm(1, 4096, 4096, 2), *A100)


def test_batch_moves_gemm_across_the_ridge(entry):
    # N = K = 8192 bf16: M = 128 gives 124 FLOP/B (memory-bound), M = 256 gives 241 (compute-bound)
    _expect(entry, _gemm(128, 8192, 8192, 2), *A100)
    _expect(entry, _gemm(256, 8192, 8192, 2), *A100)


def test_elementwise_is_memory_bound(entry):
    _expect(entry, _elementwise(1 << 20, 2, 1, 4), *A100)
    _expect(entry, _elementwise(3 * 1024 * 1024, 2, 10, 2), *A100)
    # a plain copy does no arithmetic at all
    _expect(entry, _elementwise(1000, 1, 0, 4), *A100)


def test_exactly_at_the_ridge(entry):
    # ridge 1e12 / 1e11 = 10 FLOP/B; both ops below have intensity exactly 10
    _expect(entry, _elementwise(1000, 1, 80, 4), 1e12, 1e11)
    _expect(entry, _gemm(30, 30, 30, 2), 1e12, 1e11)


def test_unknown_kind_raises(entry):
    try:
        entry({"kind": "conv", "n": 10, "dtype_bytes": 2}, *A100)
    except ValueError:
        return
    except Exception as exc:  # noqa: BLE001 - the message names what was raised instead
        raise AssertionError(say(f"an op of kind \"conv\" should raise ValueError, got {type(exc).__name__}",
                                 f"kind 为 \"conv\" 的算子应抛出 ValueError，实际抛出了 {type(exc).__name__}")) from None
    raise AssertionError(say("an op of kind \"conv\" should raise ValueError, but the call returned",
                             "kind 为 \"conv\" 的算子应抛出 ValueError，调用却正常返回了"))
