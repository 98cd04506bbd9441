"""Per-GPU model-state memory, checked part by part and against the ZeRO paper's figures."""

from quiz.grader.say import say

GB = 1e9


def _call(entry, *args, **kwargs):
    got = entry(*args, **kwargs)
    assert isinstance(got, dict), say(f"zero_memory should return a dict, got {type(got).__name__}",
                                      f"zero_memory 应返回 dict，实际返回了 {type(got).__name__}")
    missing = {"params", "grads", "optimizer_states", "total"} - set(got)
    assert not missing, say(f"the returned dict lacks {sorted(missing)}", f"返回的 dict 缺少 {sorted(missing)}")
    return got


def _close(a, b):
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def _expect(entry, psi, n, stage, want, **kw):
    got = _call(entry, psi, n, stage, **kw)
    extra = f", {kw}" if kw else ""
    for key in ("params", "grads", "optimizer_states", "total"):
        assert _close(got[key], want[key]), say(
            f"stage {stage}, {psi:g} parameters, {n} GPUs{extra}: expected {key} = {want[key] / psi:g} bytes x Psi "
            f"= {want[key]:g} B per GPU, got {float(got[key]):g} B ({float(got[key]) / psi:g} x Psi)",
            f"stage {stage}，{psi:g} 个参数，{n} 块 GPU{'，' + str(kw) if kw else ''}：{key} 应为每块 GPU {want[key] / psi:g} 字节 x Psi "
            f"= {want[key]:g} B，实际是 {float(got[key]):g} B（{float(got[key]) / psi:g} x Psi）",
        )


def test_ddp_replicates_everything(entry):
    psi = 1e9
    _expect(entry, psi, 8, 0, {"params": 2 * psi, "grads": 2 * psi, "optimizer_states": 12 * psi, "total": 16 * psi})


def test_each_stage_on_8_gpus(entry):
    psi, n = 1e9, 8
    _expect(entry, psi, n, 1, {"params": 2 * psi, "grads": 2 * psi, "optimizer_states": 12 * psi / n,
                               "total": 4 * psi + 12 * psi / n})
    _expect(entry, psi, n, 2, {"params": 2 * psi, "grads": 2 * psi / n, "optimizer_states": 12 * psi / n,
                               "total": 2 * psi + 14 * psi / n})
    _expect(entry, psi, n, 3, {"params": 2 * psi / n, "grads": 2 * psi / n, "optimizer_states": 12 * psi / n,
                               "total": 16 * psi / n})


def test_zero_paper_example(entry):
    # Psi = 7.5B on 64 GPUs: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB
    psi, n = 7.5e9, 64
    want = {0: 120.0, 1: 31.40625, 2: 16.640625, 3: 1.875}
    for stage, gb in want.items():
        got = _call(entry, psi, n, stage)["total"]
        assert _close(got, gb * GB), say(
            f"ZeRO paper example (Psi = 7.5B, N = 64), stage {stage}: expected {gb} GB per GPU, got {float(got) / GB:g} GB",
            f"ZeRO 论文的例子（Psi = 7.5B，N = 64），stage {stage}：每块 GPU 应为 {gb} GB，实际是 {float(got) / GB:g} GB",
        )


def test_one_gpu_saves_nothing(entry):
    psi = 3e8
    for stage in range(4):
        got = _call(entry, psi, 1, stage)["total"]
        assert _close(got, 16 * psi), say(
            f"with 1 GPU there is nothing to shard: stage {stage} should be 16 x Psi = {16 * psi:g} B, got {float(got):g}",
            f"只有 1 块 GPU 时没有东西可切分：stage {stage} 应为 16 x Psi = {16 * psi:g} B，实际是 {float(got):g}")


def test_other_byte_counts(entry):
    psi, n = 7e9, 8
    # fp32 gradient buffer (as Megatron-LM keeps in bf16 training): 2 + 4 + 12 = 18 B per parameter
    _expect(entry, psi, n, 0, {"params": 2 * psi, "grads": 4 * psi, "optimizer_states": 12 * psi, "total": 18 * psi},
            grad_bytes=4)
    # mixed-precision SGD with momentum: master weights + momentum = 8 B of optimizer state
    _expect(entry, psi, n, 1, {"params": 2 * psi, "grads": 2 * psi, "optimizer_states": 8 * psi / n,
                               "total": 4 * psi + 8 * psi / n}, optimizer_bytes=8)
    # pure fp32 training with Adam: 4 + 4 + 8 (the fp32 params are the master copy)
    _expect(entry, psi, n, 2, {"params": 4 * psi, "grads": 4 * psi / n, "optimizer_states": 8 * psi / n,
                               "total": 4 * psi + 12 * psi / n}, param_bytes=4, grad_bytes=4, optimizer_bytes=8)


def test_rejects_unknown_stage(entry):
    for bad in (4, -1):
        try:
            entry(1e9, 8, bad)
        except ValueError:
            continue
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(say(f"stage {bad} should raise ValueError, but raised {type(exc).__name__}: {exc}",
                                     f"stage {bad} 应抛出 ValueError，实际抛出了 {type(exc).__name__}: {exc}"))
        raise AssertionError(say(f"stage {bad} does not exist (0 = DDP, 1, 2, 3): raise ValueError instead of returning",
                                 f"不存在 stage {bad}（0 = DDP、1、2、3）：应抛出 ValueError，而不是正常返回"))
