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


def occupancy(threads_per_block, regs_per_thread, smem_per_block, gpu=A100):
    """Resident blocks and warps per SM for one kernel, and which limit binds.

    Returns {"blocks_per_sm": int, "active_warps": int, "occupancy": float,
             "limiters": list of the names among "warps", "blocks", "registers",
             "shared_memory" whose block limit equals blocks_per_sm}.
    """
    # TODO: warps per block (round up), then the four per-SM block limits, then their minimum
    raise NotImplementedError("occupancy")
