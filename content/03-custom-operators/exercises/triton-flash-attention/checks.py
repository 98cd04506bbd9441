"""The torch reference for the flash-attention kernel, and what a wrong answer usually means."""

import math

import torch

from quiz.grader.say import say


def _attention(q, k, v, causal, scale=None, diagonal=True):
    q, k, v = q.double(), k.double(), v.double()
    s = q @ k.T * (1.0 / math.sqrt(q.shape[1]) if scale is None else scale)
    if causal:
        future = torch.ones(s.shape, dtype=torch.bool).triu(1 if diagonal else 0)
        s = s.masked_fill(future, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def reference(q, k, v, causal):
    return _attention(q, k, v, causal).to(q.dtype)


def _close(got, want):
    return got.shape == want.shape and torch.allclose(got.double(), want, rtol=1e-3, atol=1e-3, equal_nan=True)


def hint_output(check, args, got):
    q, k, v, causal = args
    out = got[0] if got else None
    if out is None:
        return ""
    if _close(out, _attention(q, k, v, causal, scale=1.0)):
        return say("The scores were not scaled: multiply q·kᵀ by 1/sqrt(d).",
                   "score 没有缩放：q·kᵀ 要乘以 1/sqrt(d)。")
    if causal and not torch.isfinite(out[0]).all():
        return say("Row 0 has no visible key: the causal mask must keep the diagonal, key j is visible when j <= i.",
                   "第 0 行看不到任何 key：causal mask 必须保留对角线，当 j <= i 时 key j 可见。")
    if causal and _close(out[1:], _attention(q, k, v, causal, diagonal=False)[1:]):
        return say("The diagonal was masked out: with a causal mask, query i sees keys 0..i, including itself.",
                   "对角线被 mask 掉了：在 causal mask 下，query i 能看到 key 0..i，包括它自己。")
    if k.shape[0] % 16:
        padded = torch.cat([k, torch.zeros(16 - k.shape[0] % 16, k.shape[1])])
        vpad = torch.cat([v, torch.zeros(16 - v.shape[0] % 16, v.shape[1])])
        if not causal and _close(out, _attention(q, padded, vpad, False)):
            return say(f"{k.shape[0]} keys is not a multiple of BLOCK_N: the padding keys were scored as 0 and got "
                       "softmax weight; set their scores to -inf (rn < Lk) before the max and the exp.",
                       f"key 的个数 {k.shape[0]} 不是 BLOCK_N 的整数倍：padding 的 key 得分被算成 0，分到了 "
                       "softmax 权重；请在取 max 和求 exp 之前把它们的 score 设为 -inf（rn < Lk）。")
    return say("Online softmax: when the running max grows from m_i to m_new, both the running sum and the "
               "accumulator must be multiplied by exp(m_i - m_new) before this block is added; divide by the sum "
               "once, at the end.",
               "Online softmax：当累计的最大值从 m_i 增大到 m_new 时，在加上这个 block 之前，累计和与 "
               "accumulator 都必须乘以 exp(m_i - m_new)；除以总和只在最后做一次。")
