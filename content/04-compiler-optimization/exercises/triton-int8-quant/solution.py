import torch
import triton
import triton.language as tl


@triton.jit
def quantize_kernel(x_ptr, q_ptr, scale_ptr, xhat_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=0.0)
    amax = tl.max(tl.abs(x), axis=0)
    scale = tl.where(amax > 0, amax / 127.0, 1.0)
    q = tl.floor(x / scale + 0.5)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + row * row_stride + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)
    tl.store(xhat_ptr + row * row_stride + cols, q * scale, mask=mask)


def quantize(x):
    n_rows, n_cols = x.shape
    q = torch.empty((n_rows, n_cols), dtype=torch.int8, device=x.device)
    scale = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    xhat = torch.empty_like(x)
    BLOCK = triton.next_power_of_2(n_cols)
    quantize_kernel[(n_rows,)](x, q, scale, xhat, n_cols, x.stride(0), BLOCK=BLOCK)
    return q, scale, xhat
