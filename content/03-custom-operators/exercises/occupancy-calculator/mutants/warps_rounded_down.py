# Per-SM limits of an A100 (compute capability 8.0), maximum shared-memory carveout.
A100 = {
    "max_warps": 64,              # 2048 resident threads
    "max_blocks": 32,             # resident thread blocks
    "regs": 65536,                # 32-bit registers in the register file
    "reg_unit": 256,              # registers are allocated per warp in units of 256
    "max_regs_per_thread": 255,
    "smem": 164 * 1024,           # shared memory per SM, bytes
    "smem_unit": 128,             # shared memory is allocated per block in units of 128 B
    "smem_reserved": 1024,        # bytes the system reserves in every block (sm_80 and later)
}


def _round_up(value, unit):
    return -(-value // unit) * unit


def occupancy(threads_per_block, regs_per_thread, smem_per_block, gpu=A100):
    """Resident blocks and warps per SM for one kernel, and which limit binds."""
    warps_per_block = threads_per_block // 32

    by_warps = gpu["max_warps"] // warps_per_block
    by_blocks = gpu["max_blocks"]

    if regs_per_thread > gpu["max_regs_per_thread"]:
        by_regs = 0
    else:
        regs_per_warp = _round_up(regs_per_thread * 32, gpu["reg_unit"])
        by_regs = gpu["regs"] // (regs_per_warp * warps_per_block)

    smem_alloc = _round_up(smem_per_block + gpu["smem_reserved"], gpu["smem_unit"])
    by_smem = gpu["smem"] // smem_alloc

    limits = {"warps": by_warps, "blocks": by_blocks, "registers": by_regs, "shared_memory": by_smem}
    blocks = min(limits.values())
    active_warps = blocks * warps_per_block
    return {
        "blocks_per_sm": blocks,
        "active_warps": active_warps,
        "occupancy": active_warps / gpu["max_warps"],
        "limiters": sorted(name for name, value in limits.items() if value == blocks),
    }
