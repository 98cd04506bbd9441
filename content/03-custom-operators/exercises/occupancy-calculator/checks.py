"""Known occupancy figures on an A100 (sm_80) and a GA10x part (sm_86)."""

from quiz.grader.say import say

A100 = {
    "max_warps": 64, "max_blocks": 32, "regs": 65536, "reg_unit": 256, "max_regs_per_thread": 255,
    "smem": 164 * 1024, "smem_unit": 128, "smem_reserved": 1024,
}
SM86 = {
    "max_warps": 48, "max_blocks": 16, "regs": 65536, "reg_unit": 256, "max_regs_per_thread": 255,
    "smem": 100 * 1024, "smem_unit": 128, "smem_reserved": 1024,
}


def _run(entry, threads, regs, smem, gpu):
    result = entry(threads, regs, smem, dict(gpu))
    assert isinstance(result, dict), say(f"occupancy(...) should return a dict, got {type(result).__name__}",
                                         f"occupancy(...) 应返回 dict，实际返回了 {type(result).__name__}")
    missing = {"blocks_per_sm", "active_warps", "occupancy", "limiters"} - set(result)
    assert not missing, say(f"the returned dict lacks {sorted(missing)}", f"返回的 dict 缺少 {sorted(missing)}")
    return result


def _expect(entry, threads, regs, smem, gpu, blocks, warps, limiters=None, label="A100"):
    case = say(f"{label}, {threads} threads/block, {regs} regs/thread, {smem} B smem/block",
               f"{label}，每 block {threads} 线程，每线程 {regs} 个寄存器，每 block {smem} B shared memory")
    got = _run(entry, threads, regs, smem, gpu)
    assert got["blocks_per_sm"] == blocks, say(f"{case}: expected {blocks} blocks/SM, got {got['blocks_per_sm']!r}",
                                               f"{case}：应为每 SM {blocks} 个 block，实际是 {got['blocks_per_sm']!r}")
    assert got["active_warps"] == warps, say(f"{case}: expected {warps} active warps/SM, got {got['active_warps']!r}",
                                             f"{case}：应为每 SM {warps} 个活跃 warp，实际是 {got['active_warps']!r}")
    want_occ = warps / gpu["max_warps"]
    assert abs(float(got["occupancy"]) - want_occ) < 1e-9, say(
        f"{case}: expected occupancy {want_occ:.4f} (active warps / {gpu['max_warps']}), got {got['occupancy']!r}",
        f"{case}：occupancy 应为 {want_occ:.4f}（活跃 warp 数 / {gpu['max_warps']}），实际是 {got['occupancy']!r}",
    )
    if limiters is not None:
        assert set(got["limiters"]) == set(limiters), say(
            f"{case}: expected limiters {sorted(limiters)}, got {sorted(got['limiters'])}",
            f"{case}：限制因素应为 {sorted(limiters)}，实际是 {sorted(got['limiters'])}",
        )


def test_full_occupancy(entry):
    # 8 warps/block: 64 // 8 = 8 blocks by warps, 65536 // (1024 * 8) = 8 by registers
    _expect(entry, 256, 32, 0, A100, 8, 64, {"warps", "registers"})


def test_register_table(entry):
    # 256-thread blocks (8 warps): registers per warp = round_up(regs * 32, 256)
    for regs, blocks in ((32, 8), (40, 6), (64, 4), (65, 3), (128, 2), (255, 1)):
        _expect(entry, 256, regs, 0, A100, blocks, blocks * 8, {"registers"} if blocks < 8 else None)


def test_register_allocation_granularity(entry):
    # 36 regs/thread = 1152 per warp, allocated as 1280 (5 units of 256): 65536 // (1280 * 8) = 6, not 7
    _expect(entry, 256, 36, 0, A100, 6, 48, {"registers"})


def test_register_cliff_with_1024_threads(entry):
    _expect(entry, 1024, 32, 0, A100, 2, 64, {"warps", "registers"})
    # 33 regs -> 40 per thread after rounding: 40 * 32 * 32 = 40960 registers per block, only one fits
    _expect(entry, 1024, 33, 0, A100, 1, 32, {"registers"})
    # 72 * 32 * 32 = 73728 > 65536: the block cannot launch at all
    _expect(entry, 1024, 72, 0, A100, 0, 0, {"registers"})
    # more than 255 registers per thread is not allowed
    _expect(entry, 128, 256, 0, A100, 0, 0, {"registers"})


def test_small_blocks_hit_the_block_cap(entry):
    # one warp per block: 32 blocks x 1 warp = 32 warps, only half of the SM
    _expect(entry, 32, 16, 0, A100, 32, 32, {"blocks"})
    # 48 threads still occupy 2 whole warps: 32 blocks x 2 warps = 64 warps
    _expect(entry, 48, 16, 0, A100, 32, 64, {"blocks", "warps"})


def test_shared_memory(entry):
    # 32 KB + 1 KB reserved = 33 KB per block: 164 // 33 = 4 blocks (5 if the reserve is forgotten)
    _expect(entry, 256, 32, 32 * 1024, A100, 4, 32, {"shared_memory"})
    # 48 KB + 1 KB: 3 blocks
    _expect(entry, 256, 32, 48 * 1024, A100, 3, 24, {"shared_memory"})
    # 54926 + 1024 = 55950 B, allocated as 56064 (438 units of 128 B): 167936 // 56064 = 2, not 3
    _expect(entry, 128, 32, 54926, A100, 2, 8, {"shared_memory"})
    # 163 KB is the most one block may use on sm_80; one byte more and it cannot launch
    _expect(entry, 128, 32, 163 * 1024, A100, 1, 4, {"shared_memory"})
    _expect(entry, 128, 32, 163 * 1024 + 1, A100, 0, 0, {"shared_memory"})


def test_other_gpu_limits(entry):
    # sm_86: 48 warps, 16 blocks, 100 KB shared memory per SM
    _expect(entry, 256, 32, 0, SM86, 6, 48, {"warps"}, label="sm_86")
    # 4 warps/block: 12 by warps, 8 by registers, 102400 // 21504 = 4 by shared memory
    _expect(entry, 128, 64, 20 * 1024, SM86, 4, 16, {"shared_memory"}, label="sm_86")
    _expect(entry, 32, 32, 0, SM86, 16, 16, {"blocks"}, label="sm_86")
