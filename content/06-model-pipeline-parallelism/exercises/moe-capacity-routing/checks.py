"""A per-token reference MoE loop and the tests: no drops, capacity, drop priority, top-1, gradients."""

import math

import torch

from quiz.grader.say import say


def reference(x, router_w, w1, w2, k, capacity_factor):
    """One token at a time: decide which (token, choice) pairs fit, then sum gate * expert(token)."""
    t_count, e_count = x.shape[0], router_w.shape[1]
    probs = torch.softmax(x @ router_w, dim=-1)
    top_p, top_e = probs.topk(k, dim=-1)
    gates = top_p / top_p.sum(dim=-1, keepdim=True)
    capacity = math.ceil(capacity_factor * t_count * k / e_count)
    counts = [0] * e_count
    keep = set()
    for j in range(k):
        for t in range(t_count):
            e = int(top_e[t, j])
            if counts[e] < capacity:
                counts[e] += 1
                keep.add((t, j))
    rows = []
    for t in range(t_count):
        acc = torch.zeros_like(x[t])
        for j in range(k):
            if (t, j) in keep:
                e = int(top_e[t, j])
                acc = acc + gates[t, j] * (torch.relu(x[t] @ w1[e]) @ w2[e])
        rows.append(acc)
    return torch.stack(rows), counts, capacity


def make(t, d, h, e, seed, skew=0.0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.rand(t, d, generator=gen, dtype=torch.float64) * 2 - 1
    router_w = torch.rand(d, e, generator=gen, dtype=torch.float64) * 2 - 1
    if skew:
        # a constant feature and a router row that favours low-numbered experts, so some experts overflow
        x[:, 0] = 1.0
        router_w[0] = torch.linspace(skew, -skew, e, dtype=torch.float64)
    w1 = (torch.rand(e, d, h, generator=gen, dtype=torch.float64) * 2 - 1) / d**0.5
    w2 = (torch.rand(e, h, d, generator=gen, dtype=torch.float64) * 2 - 1) / h**0.5
    return [x, router_w, w1, w2]


def _call(entry, ts, k, cf):
    res = entry(*ts, k, cf)
    assert isinstance(res, (tuple, list)) and len(res) == 2, say("moe_layer should return a pair (y, counts)",
                                                                                 "moe_layer 应返回二元组 (y, counts)")
    y, counts = res
    assert isinstance(y, torch.Tensor), say(f"y should be a tensor, got {type(y).__name__}",
                                            f"y 应是 tensor，实际是 {type(y).__name__}")
    counts = [int(c) for c in (counts.tolist() if isinstance(counts, torch.Tensor) else counts)]
    return y, counts


def _compare(label, y, want, hint=""):
    assert tuple(y.shape) == tuple(want.shape), say(f"{label}: y has shape {tuple(y.shape)}, expected {tuple(want.shape)}",
                                                    f"{label}：y 的形状是 {tuple(y.shape)}，应为 {tuple(want.shape)}")
    if not torch.allclose(y, want, atol=1e-10, rtol=1e-8):
        bad = ((y - want).abs() > 1e-8).any(dim=-1).nonzero().flatten().tolist()
        assert False, say(
            f"{label}: output rows {bad[:8]} differ from the per-token reference "
            f"(largest difference {float((y - want).abs().max()):.3g}){hint}",
            f"{label}：输出的第 {bad[:8]} 行与逐 token 的参考实现不一致"
            f"（最大差值 {float((y - want).abs().max()):.3g}）{hint}",
        )


def test_no_drops_matches_dense_loop(entry):
    ts = make(10, 6, 8, 4, seed=1)
    y, counts = _call(entry, ts, 2, 4.0)  # capacity 20 >= every possible load: nothing is dropped
    want, want_counts, _ = reference(*ts, 2, 4.0)
    _compare(say("k=2, E=4, capacity factor 4 (no drops)", "k=2，E=4，capacity factor 4（无丢弃）"), y, want,
             say("; check the softmax axis (over experts, per token) and the gates renormalised over the k chosen experts",
                 "；检查 softmax 的维度（对每个 token 在 expert 维上做）以及 gate 是否在选中的 k 个 expert 上重新归一化"))
    assert counts == want_counts, say(f"k=2, E=4, no drops: tokens per expert should be {want_counts}, got {counts}",
                                      f"k=2，E=4，无丢弃：每个 expert 的 token 数应为 {want_counts}，实际是 {counts}")


def test_capacity_formula(entry):
    ts = make(12, 5, 6, 4, seed=2, skew=1.0)
    y, counts = _call(entry, ts, 2, 1.0)
    want, want_counts, cap = reference(*ts, 2, 1.0)
    assert max(counts) <= cap, say(
        f"T=12, k=2, E=4, capacity factor 1.0: capacity is ceil(1.0 * 12 * 2 / 4) = {cap}, but an expert processed "
        f"{max(counts)} assignments (counts {counts}); keep a slot only while count < capacity",
        f"T=12，k=2，E=4，capacity factor 1.0：capacity 为 ceil(1.0 * 12 * 2 / 4) = {cap}，但有个 expert 处理了 "
        f"{max(counts)} 个分配（counts {counts}）；只有 count < capacity 时才分配 slot",
    )
    short = max(counts) < cap and sum(counts) < sum(want_counts)
    assert counts == want_counts, say(
        f"T=12, k=2, E=4, capacity factor 1.0 (capacity {cap}): tokens per expert should be {want_counts}, got {counts}"
        + ("; the capacity counts all k choices: ceil(cf * T * k / E)" if short else ""),
        f"T=12，k=2，E=4，capacity factor 1.0（capacity {cap}）：每个 expert 的 token 数应为 {want_counts}，实际是 {counts}"
        + ("；capacity 要把 k 个选择都算进去：ceil(cf * T * k / E)" if short else ""),
    )


def test_drops_follow_choice_priority(entry):
    for seed, (t, e, cf) in ((3, (16, 4, 1.0)), (4, (9, 3, 0.75)), (5, (20, 8, 1.25))):
        ts = make(t, 6, 8, e, seed=seed, skew=1.0)
        y, counts = _call(entry, ts, 2, cf)
        want, want_counts, cap = reference(*ts, 2, cf)
        label = say(f"T={t}, k=2, E={e}, capacity factor {cf} (capacity {cap})",
                    f"T={t}，k=2，E={e}，capacity factor {cf}（capacity {cap}）")
        assert counts == want_counts, say(
            f"{label}: tokens per expert should be {want_counts}, got {counts}; fill slots with every token's first "
            "choice (in token order) before anyone's second choice",
            f"{label}：每个 expert 的 token 数应为 {want_counts}，实际是 {counts}；先按 token 顺序用所有 token 的"
            "第一选择填 slot，再轮到任何 token 的第二选择",
        )
        _compare(label, y, want, say("; the counts match, so the wrong assignments were kept: every token's first choice "
                                     "claims a slot before any token's second choice",
                                     "；counts 是对的，所以是保留了错误的分配：所有 token 的第一选择"
                                     "都要先于任何 token 的第二选择占到 slot"))


def test_top1(entry):
    ts = make(12, 4, 6, 4, seed=6, skew=1.0)
    y, counts = _call(entry, ts, 1, 1.0)
    want, want_counts, cap = reference(*ts, 1, 1.0)
    assert counts == want_counts, say(
        f"k=1 (Switch), T=12, E=4, capacity {cap}: tokens per expert should be {want_counts}, got {counts}",
        f"k=1（Switch），T=12，E=4，capacity {cap}：每个 expert 的 token 数应为 {want_counts}，实际是 {counts}")
    _compare(say(f"k=1 (Switch), T=12, E=4, capacity {cap}: a kept token's gate is 1 after renormalising",
                 f"k=1（Switch），T=12，E=4，capacity {cap}：被保留 token 的 gate 重新归一化后为 1"), y, want)


def test_gradients(entry):
    ts = [t.requires_grad_(True) for t in make(10, 5, 6, 4, seed=7, skew=1.0)]
    y, _ = _call(entry, ts, 2, 1.0)
    assert y.requires_grad, say("y has no autograd graph; build it from differentiable ops (index_add, not in-place writes into a leaf or .detach())",
                                "y 没有 autograd 计算图；要用可微的算子构造它（用 index_add，不要原地写入 leaf，也不要 .detach()）")
    gen = torch.Generator().manual_seed(8)
    g = torch.rand(y.shape, generator=gen, dtype=torch.float64) * 2 - 1
    got = torch.autograd.grad(y, ts, g, allow_unused=True)
    want_y, _, _ = reference(*ts, 2, 1.0)
    want = torch.autograd.grad(want_y, ts, g, allow_unused=True)
    for name, a, b in zip(("x", "router_w", "w1", "w2"), got, want):
        assert a is not None, say(f"no gradient reached {name}: the router gates and expert weights must stay in the graph",
                                  f"没有梯度传到 {name}：router 的 gate 和 expert 权重都必须留在计算图里")
        if not torch.allclose(a, b, atol=1e-9, rtol=1e-7):
            assert False, say(f"the gradient of {name} differs from the per-token reference by up to {float((a - b).abs().max()):.3g}",
                              f"{name} 的梯度与逐 token 参考实现最多相差 {float((a - b).abs().max()):.3g}")
