"""The function being checkpointed, the plain-autograd reference, and a count of saved tensors."""

import torch

from quiz.grader.say import say


def block(x, w1, w2):
    """A small MLP block whose backward needs several intermediate activations."""
    h = torch.tanh(x @ w1)
    return torch.sigmoid(h @ w2) * x


def plain(fn, *inputs):
    return fn(*inputs)


def saves_only_inputs(held, args):
    """Judged on what the backward node holds: the three tensor inputs, and no activation (a float
    tensor that is not an input; an RNG state, a uint8 tensor, is fine)."""
    floats = ("float64", "float32", "float16", "bfloat16")
    extra = [(h["where"], h["shape"]) for h in held if h["alias_of"] is None and h["dtype"] in floats]
    assert not extra, say(f"forward keeps {len(extra)} tensor(s) that are not inputs, {extra}: a checkpoint keeps only its inputs",
                          f"forward 保存了 {len(extra)} 个不是输入的 tensor，{extra}：checkpoint 只保存它的输入")
    kept = {h["alias_of"] for h in held}
    missing = [name for i, name in ((1, "x"), (2, "w1"), (3, "w2")) if i not in kept]
    assert not missing, say(f"forward did not keep {', '.join(missing)}; save every tensor input with ctx.save_for_backward",
                            f"forward 没有保存 {', '.join(missing)}；请用 ctx.save_for_backward 保存每个 tensor 输入")
