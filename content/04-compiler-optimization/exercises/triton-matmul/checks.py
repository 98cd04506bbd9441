"""The torch reference for the tiled-matmul kernel, and what a wrong answer usually means."""

import torch

from quiz.grader.say import say


def reference(a, b):
    return (a.double() @ b.double()).to(a.dtype)


def hint_output(check, args, got):
    a, b = args
    K = a.shape[1]
    out = got[0].double() if got else None
    if out is not None and out.shape == (a.shape[0], b.shape[1]):
        first = a[:, :32].double() @ b[:32].double()
        if K > 32 and torch.allclose(out, first, rtol=1e-3, atol=1e-2):
            return say("Only the first BLOCK_K slice of K was summed: loop over K in steps of BLOCK_K and accumulate.",
                       "只累加了 K 的第一个 BLOCK_K 切片：应以 BLOCK_K 为步长遍历 K 并累加。")
    tail = say(f"K = {K} is not a multiple of BLOCK_K: the last K step needs the K mask on both loads, with "
               "other=0.0 so the padding adds nothing to the dot product. ",
               f"K = {K} 不是 BLOCK_K 的整数倍：K 的最后一步在两个 load 上都需要 K 方向的 mask，并设 "
               "other=0.0，让 padding 对点积没有贡献。") if K % 32 else ""
    return tail + say("Check each pointer's strides: A[m, k] is at a_ptr + m*stride_am + k*stride_ak, B[k, n] at b_ptr + k*stride_bk + n*stride_bn.",
                      "请检查每个指针的 stride：A[m, k] 位于 a_ptr + m*stride_am + k*stride_ak，B[k, n] 位于 b_ptr + k*stride_bk + n*stride_bn。")
