"""The torch reference for the fused bias + GELU kernel, and what a wrong answer usually means."""

import torch
import torch.nn.functional as F

from quiz.grader.say import say


def reference(x, bias):
    return F.gelu(x.double() + bias.double()).to(x.dtype)


def _close(got, want):
    return got.shape == want.shape and torch.allclose(got.double(), want.double(), rtol=1e-5, atol=1e-5)


def hint_output(check, args, got):
    x, bias = args
    out = got[0] if got else None
    if out is None:
        return ""
    h = x.double() + bias.double()
    if _close(out, F.gelu(h, approximate="tanh")):
        return say("This is the tanh approximation of GELU; the exact one is 0.5 * h * (1 + erf(h / sqrt(2))).",
                   "这是 GELU 的 tanh 近似；精确的 GELU 是 0.5 * h * (1 + erf(h / sqrt(2)))。")
    if _close(out, F.gelu(x.double()) + bias.double()):
        return say("The bias was added after the GELU: it goes inside, gelu(x + bias).",
                   "bias 是在 GELU 之后才加的：它应该放在里面，即 gelu(x + bias)。")
    by_row = torch.zeros(x.shape[0], dtype=torch.float64)
    n = min(x.shape[0], bias.shape[0])
    by_row[:n] = bias[:n].double()
    if _close(out, F.gelu(x.double() + by_row[:, None])):
        return say("bias was indexed by row: it has one value per column, bias_ptr + cols, broadcast as b[None, :].",
                   "bias 被按行索引了：它每一列对应一个值，应读取 bias_ptr + cols，并以 b[None, :] 的形式广播。")
    if x.shape[1] % 64:
        return say(f"{x.shape[1]} columns is not a multiple of BLOCK_N: the mask must cover the columns "
                   "(cols < n_cols) as well as the rows, on the load of x, of bias and on the store.",
                   f"列数 {x.shape[1]} 不是 BLOCK_N 的整数倍：mask 除了覆盖行，还必须覆盖列（cols < n_cols），"
                   "x 的 load、bias 的 load 和 store 上都要加。")
    return say("bias has one value per column: load it at bias_ptr + cols and broadcast it over the rows (b[None, :]).",
               "bias 每一列对应一个值：在 bias_ptr + cols 处 load，再沿行广播（b[None, :]）。")
