import torch
import triton
import triton.language as tl


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, row_stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * row_stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + cols, mask=cols < n_cols, other=0.0)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)) + b[None, :]
    tl.store(out_ptr + offs, y, mask=mask)


def bias_gelu(x, bias):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 16, 64
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    bias_gelu_kernel[grid](x, bias, out, n_rows, n_cols, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
