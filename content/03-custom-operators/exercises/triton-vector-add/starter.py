import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    # TODO: the offsets of this block, a mask for the ones inside the tensor,
    # masked loads of x and y, and a masked store of their sum.
    pass


def add(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK = 256
    # TODO: launch add_kernel over enough blocks to cover n elements.
    return out
