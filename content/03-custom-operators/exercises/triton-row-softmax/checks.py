"""The torch reference for the row-softmax kernel, and what a wrong answer usually means."""

import torch

from quiz.grader.say import say


def reference(x):
    return torch.softmax(x.double(), dim=-1).to(x.dtype)


def hint_output(check, args, got):
    x = args[0]
    out = got[0] if got else None
    cols = x.shape[-1]
    if out is not None and not torch.isfinite(out).all():
        return say("NaN or inf: exp of a large logit overflows float32 (exp(89) is already inf). Subtract the row "
                   "max before tl.exp, and load padding lanes as -inf so that they never become the max.",
                   "出现了 NaN 或 inf：较大 logit 的 exp 会让 float32 溢出（exp(89) 就已经是 inf）。在 tl.exp "
                   "之前先减去该行的最大值，并把 padding lane load 成 -inf，这样它们永远不会成为最大值。")
    if cols & (cols - 1):
        return say(f"{cols} columns is not a power of two, so the block has padding lanes: load them with "
                   "other=-float('inf') so exp gives 0 there, and step from row to row by the row stride, not by BLOCK.",
                   f"列数 {cols} 不是 2 的幂，所以 block 里有 padding lane：load 时用 other=-float('inf')，"
                   "让 exp 在那里得到 0；行与行之间按行 stride 移动，而不是按 BLOCK。")
    return say("Check the row offset (row * row_stride) and that every row is divided by its own sum.",
               "请检查行偏移（row * row_stride），以及每一行是否除以它自己的和。")
