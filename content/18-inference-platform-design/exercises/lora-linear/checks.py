"""A test-made base nn.Linear wrapped by the learner's LoRALinear; observe() reports what the test's own objects
show after each call (is the base frozen, do the adapter weights train), since the judge has no learner objects."""

import math

import torch
from torch import nn

from quiz.grader.say import say

_watch = {"base": None, "A": None, "B": None}


def observe():
    base, a, b = _watch["base"], _watch["A"], _watch["B"]
    seen = {
        "base_grad": [bool(p.requires_grad) for p in base.parameters()] if base is not None else [],
        "A_grad": bool(a.requires_grad) if isinstance(a, torch.Tensor) else None,
        "B_grad": bool(b.requires_grad) if isinstance(b, torch.Tensor) else None,
    }
    restore(seen)  # the learner's child reads _seen too, so both runs of the test take the same path
    return seen


_seen = {}


def restore(seen):
    _seen.clear()
    _seen.update(seen)


def _setup(entry, seed, n_in=64, n_out=48, r=4, alpha=8.0):
    g = torch.Generator().manual_seed(seed)
    base = nn.Linear(n_in, n_out, dtype=torch.float64)
    with torch.no_grad():
        base.weight.copy_(torch.randn(n_out, n_in, generator=g, dtype=torch.float64) * 0.1)
        base.bias.copy_(torch.randn(n_out, generator=g, dtype=torch.float64) * 0.1)
    w0, b0 = base.weight.detach().clone(), base.bias.detach().clone()
    _watch.update(base=base, A=None, B=None)
    m = entry(base, r, alpha)
    x = torch.randn(5, n_in, generator=g, dtype=torch.float64)
    return m, base, w0, b0, x, g


def _out(m, x, what):
    y = m(x)
    assert isinstance(y, torch.Tensor) and y.shape == (x.shape[0], 48), say(
        f"{what}: forward should return a tensor of shape ({x.shape[0]}, 48), got {getattr(y, 'shape', y)!r}",
        f"{what}：forward 应返回形状为 ({x.shape[0]}, 48) 的张量，实际是 {getattr(y, 'shape', y)!r}",
    )
    return y


def test_starts_equal_to_base(entry, seed):
    m, base, w0, b0, x, _ = _setup(entry, seed)
    y = _out(m, x, "right after construction")
    want = x @ w0.T + b0
    err = (y.detach() - want).abs().max().item()
    assert err < 1e-12, say(
        f"right after construction the layer should equal the base layer exactly (B starts at zero, so B A = 0); "
        f"the largest difference is {err:.3g}",
        f"刚构造好时这一层应与 base 层完全相同（B 初始化为零，所以 B A = 0）；最大差值 {err:.3g}",
    )


def test_adapter_shapes_and_init(entry, seed):
    m, base, *_ = _setup(entry, seed)
    a, b = m.lora_A, m.lora_B
    assert isinstance(a, torch.Tensor) and tuple(a.shape) == (4, 64), say(
        f"lora_A should be a (r, in_features) = (4, 64) parameter, got {getattr(a, 'shape', a)!r}",
        f"lora_A 应是 (r, in_features) = (4, 64) 的参数，实际是 {getattr(a, 'shape', a)!r}")
    assert isinstance(b, torch.Tensor) and tuple(b.shape) == (48, 4), say(
        f"lora_B should be an (out_features, r) = (48, 4) parameter, got {getattr(b, 'shape', b)!r}",
        f"lora_B 应是 (out_features, r) = (48, 4) 的参数，实际是 {getattr(b, 'shape', b)!r}")
    assert torch.count_nonzero(b).item() == 0, say("lora_B should start at zero", "lora_B 应初始化为零")
    bound = 1 / math.sqrt(64)  # kaiming_uniform_(a=sqrt(5)) on fan_in 64
    top = a.detach().abs().max().item()
    std = a.detach().std().item()
    assert 0 < top <= bound + 1e-12 and 0.6 * bound / math.sqrt(3) < std < 1.4 * bound / math.sqrt(3), say(
        f"lora_A should follow kaiming_uniform_(a=sqrt(5)): uniform in +-1/sqrt(in_features) = +-{bound:.3f}; got "
        f"max |A| = {top:.3f}, std {std:.4f} (expected about {bound / math.sqrt(3):.4f}); an A of zeros never trains",
        f"lora_A 应按 kaiming_uniform_(a=sqrt(5)) 初始化：在 +-1/sqrt(in_features) = +-{bound:.3f} 内均匀分布；实际 "
        f"max |A| = {top:.3f}，标准差 {std:.4f}（应约为 {bound / math.sqrt(3):.4f}）；A 全为零就永远学不动",
    )


def test_frozen_base_trainable_adapter(entry, seed):
    m, base, w0, b0, x, _ = _setup(entry, seed)
    _watch.update(A=m.lora_A, B=m.lora_B)
    _out(m, x, "forward")
    assert _seen.get("base_grad") == [False, False], say(
        f"the base layer's weight and bias should be frozen (requires_grad False), got {_seen.get('base_grad')}",
        f"base 层的 weight 和 bias 应被冻结（requires_grad 为 False），实际是 {_seen.get('base_grad')}",
    )
    assert _seen.get("A_grad") and _seen.get("B_grad"), say(
        f"lora_A and lora_B are what trains: requires_grad should be True, got A {_seen.get('A_grad')}, "
        f"B {_seen.get('B_grad')}",
        f"要训练的是 lora_A 和 lora_B：requires_grad 应为 True，实际 A {_seen.get('A_grad')}，B {_seen.get('B_grad')}",
    )


def test_forward_formula(entry, seed):
    m, base, w0, b0, x, g = _setup(entry, seed, r=4, alpha=10.0)  # alpha / r = 2.5: alpha // r would give 2
    a_new = torch.randn(4, 64, generator=g, dtype=torch.float64) * 0.1
    b_new = torch.randn(48, 4, generator=g, dtype=torch.float64) * 0.1
    with torch.no_grad():
        m.lora_A.copy_(a_new)
        m.lora_B.copy_(b_new)
    y = _out(m, x.clone().requires_grad_(True), "after setting A and B")
    scaling = 10.0 / 4
    want = x @ w0.T + b0 + scaling * (x @ a_new.T @ b_new.T)
    err = (y.detach() - want).abs().max().item()
    hint_en = hint_zh = ""
    for s, name in ((10.0, "alpha"), (4 / 10.0, "r / alpha"), (1.0, "1"), (2.0, "alpha // r (a floor division)")):
        if (y.detach() - (x @ w0.T + b0 + s * (x @ a_new.T @ b_new.T))).abs().max().item() < 1e-9:
            hint_en, hint_zh = f" (the update is scaled by {name}; LoRA scales by alpha / r)", f"（更新量乘的是 {name}；LoRA 乘 alpha / r）"
    assert err < 1e-9, say(
        f"r=4, alpha=10, A and B set by the test: the output differs from base(x) + (alpha/r) x A^T B^T by up to "
        f"{err:.3g}{hint_en}",
        f"r=4，alpha=10，A 和 B 由测试设定：输出与 base(x) + (alpha/r) x A^T B^T 最多相差 {err:.3g}{hint_zh}",
    )
    assert y.requires_grad, say(
        "the output does not depend on the input through autograd (is forward run under no_grad, or detached?)",
        "输出与输入之间没有 autograd 图（forward 是否在 no_grad 下运行，或被 detach 了？）",
    )


def test_merged_weight(entry, seed):
    m, base, w0, b0, x, g = _setup(entry, seed, r=8, alpha=16.0)
    a_new = torch.randn(8, 64, generator=g, dtype=torch.float64) * 0.1
    b_new = torch.randn(48, 8, generator=g, dtype=torch.float64) * 0.1
    with torch.no_grad():
        m.lora_A.copy_(a_new)
        m.lora_B.copy_(b_new)
    merged = m.merged_weight()
    want = w0 + (16.0 / 8) * (b_new @ a_new)
    assert isinstance(merged, torch.Tensor) and merged.shape == want.shape, say(
        f"merged_weight() should return a (48, 64) tensor, got {getattr(merged, 'shape', merged)!r}",
        f"merged_weight() 应返回 (48, 64) 的张量，实际是 {getattr(merged, 'shape', merged)!r}")
    err = (merged.detach() - want).abs().max().item()
    assert err < 1e-12, say(f"merged_weight() differs from W + (alpha/r) B A by up to {err:.3g}",
                            f"merged_weight() 与 W + (alpha/r) B A 最多相差 {err:.3g}")
    y = _out(m, x, "after merged_weight()")
    err = (y.detach() - (x @ want.T + b0)).abs().max().item()
    assert err < 1e-9, say(
        f"after merged_weight(), forward should still be the unmerged LoRA layer (base.weight untouched): "
        f"x W_merged^T + b and forward differ by {err:.3g}; merging into base.weight in place doubles the update",
        f"调用 merged_weight() 之后 forward 仍应是未合并的 LoRA 层（base.weight 不变）：x W_merged^T + b 与 forward "
        f"相差 {err:.3g}；就地合并进 base.weight 会让更新量算两次",
    )
