import math

import torch
import triton
import triton.language as tl


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, Lq, Lk, stride_q, stride_k, stride_v, stride_o, scale,
                     CAUSAL: tl.constexpr, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    # TODO: load this program's block of queries; keep a running max m_i, a running sum l_i and an
    # accumulator acc; for each block of keys: scores, masks (padding keys, and the future when CAUSAL),
    # the new max, rescale l_i and acc by exp(m_i - m_new), add this block; at the end store acc / l_i.
    pass


def attention(q, k, v, causal):
    Lq, D = q.shape
    Lk = k.shape[0]
    out = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 16, 16
    # TODO: one program per block of queries.
    return out
