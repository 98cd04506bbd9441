import math

import torch
import triton
import triton.language as tl


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, Lq, Lk, stride_q, stride_k, stride_v, stride_o, scale,
                     CAUSAL: tl.constexpr, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * stride_q + rd[None, :], mask=rm[:, None] < Lq, other=0.0)
    m_i = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, D), tl.float32)
    for start in range(0, Lk, BLOCK_N):
        rn = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + rn[:, None] * stride_k + rd[None, :], mask=rn[:, None] < Lk, other=0.0)
        v = tl.load(v_ptr + rn[:, None] * stride_v + rd[None, :], mask=rn[:, None] < Lk, other=0.0)
        s = tl.dot(q, tl.trans(k)) * scale
        if CAUSAL:
            s = tl.where(rn[None, :] <= rm[:, None], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * stride_o + rd[None, :], out, mask=rm[:, None] < Lq)


def attention(q, k, v, causal):
    Lq, D = q.shape
    Lk = k.shape[0]
    out = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 16, 16
    attention_kernel[(triton.cdiv(Lq, BLOCK_M),)](
        q, k, v, out, Lq, Lk, q.stride(0), k.stride(0), v.stride(0), out.stride(0), 1.0 / math.sqrt(D),
        CAUSAL=causal, D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
