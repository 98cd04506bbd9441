"""Fixed gradients over several steps; what is sent plus what is left must add up to what came in."""

import torch

from quiz.grader.say import say


def _grads(seed, steps, shape):
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(*shape, generator=gen, dtype=torch.float64) for _ in range(steps)]


def _dense(values, indices, numel):
    values = torch.as_tensor(values, dtype=torch.float64).reshape(-1)
    indices = torch.as_tensor(indices).reshape(-1).to(torch.int64)
    assert values.numel() == indices.numel(), say(f"got {values.numel()} values but {indices.numel()} indices",
                                                  f"收到 {values.numel()} 个 value，却有 {indices.numel()} 个 index")
    assert len(set(indices.tolist())) == indices.numel(), say("the same index was sent twice in one step",
                                                              "同一个 index 在一步里被发送了两次")
    out = torch.zeros(numel, dtype=torch.float64)
    out[indices] = values
    return out


def _compress(comp, name, grad):
    out = comp.compress(name, grad)
    assert isinstance(out, tuple) and len(out) == 2, say(f"compress should return (values, indices), got {type(out).__name__}",
                                                         f"compress 应返回 (values, indices)，实际返回了 {type(out).__name__}")
    return out


def test_k_from_ratio(entry):
    for numel, ratio, k in ((100, 0.1, 10), (10, 0.25, 2), (3, 0.1, 1), (64, 1 / 64, 1)):
        comp = entry(ratio)
        values, indices = _compress(comp, "w", torch.arange(1.0, numel + 1, dtype=torch.float64))
        got = torch.as_tensor(indices).numel()
        assert got == k, say(f"{numel} elements at ratio {ratio:g}: expected k = max(1, int({numel} * {ratio:g})) = {k}, sent {got}",
                             f"{numel} 个元素，ratio {ratio:g}：k 应为 max(1, int({numel} * {ratio:g})) = {k}，实际发送了 {got} 个")


def test_picks_largest_magnitudes(entry):
    comp = entry(0.25)
    g = torch.tensor([0.5, -4.0, 1.0, 3.0, -0.1, 2.0, -2.5, 0.2], dtype=torch.float64)
    values, indices = _compress(comp, "w", g)
    sent = sorted(int(i) for i in torch.as_tensor(indices).reshape(-1))
    assert sent == [1, 3], say(f"for {g.tolist()} the 2 largest |g| are at indices [1, 3] (-4.0 and 3.0); sent {sent}",
                               f"对 {g.tolist()}，|g| 最大的 2 个在索引 [1, 3]（-4.0 和 3.0）；实际发送的是 {sent}")
    dense = _dense(values, indices, 8)
    assert dense[1] == -4.0 and dense[3] == 3.0, say(
        f"the values sent should keep their sign: expected -4.0 and 3.0, got {dense[1].item()} and {dense[3].item()}",
        f"发送的值应保留符号：应为 -4.0 和 3.0，实际是 {dense[1].item()} 和 {dense[3].item()}")


def test_residual_is_added_next_step(entry):
    comp = entry(0.25)
    g1 = torch.tensor([0.5, -4.0, 1.0, 3.0, -0.1, 2.0, -2.5, 0.2], dtype=torch.float64)
    _compress(comp, "w", g1)
    values, indices = _compress(comp, "w", torch.zeros(8, dtype=torch.float64))
    dense = _dense(values, indices, 8)
    want = torch.zeros(8, dtype=torch.float64)
    want[6], want[5] = -2.5, 2.0
    assert torch.equal(dense, want), say(
        f"step 1 sent -4.0 and 3.0 of {g1.tolist()}; with a zero gradient in step 2 the residual alone should make "
        f"-2.5 (index 6) and 2.0 (index 5) go out; sent {dense.tolist()}",
        f"第 1 步发送了 {g1.tolist()} 中的 -4.0 和 3.0；第 2 步梯度为零，仅靠 residual 就应发出 "
        f"-2.5（索引 6）和 2.0（索引 5）；实际发送的是 {dense.tolist()}",
    )


def test_sent_plus_residual_conserves_gradient(entry):
    comp = entry(0.1)  # 40 elements: k = 4 per step
    grads = _grads(0, 6, (5, 8))
    sent = torch.zeros(40, dtype=torch.float64)
    for g in grads:
        values, indices = _compress(comp, "layer", g.clone())
        sent += _dense(values, indices, 40)
    # ten steps with zero gradients drain the residual, 4 entries at a time
    for _ in range(10):
        values, indices = _compress(comp, "layer", torch.zeros(5, 8, dtype=torch.float64))
        sent += _dense(values, indices, 40)
    total = sum(g.reshape(-1) for g in grads)
    err = float((sent - total).abs().max())
    assert err < 1e-12, say(
        "error feedback loses nothing: after 6 gradients and 10 zero steps that drain the residual, everything sent "
        f"should add up to the sum of the 6 gradients, but differs by up to {err:.4g} "
        "(is every unsent entry carried into the next step exactly once, and every sent entry removed from the residual?)",
        "error feedback 不会丢任何东西：6 个梯度之后再跑 10 步零梯度把 residual 排空，发送的所有内容加起来"
        f"应等于这 6 个梯度之和，但最多相差 {err:.4g}"
        "（每个没发送的元素是否恰好带入下一步一次？每个已发送的元素是否从 residual 中移除了？）",
    )


def test_residual_per_tensor(entry):
    comp = entry(0.5)
    a = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
    b = torch.tensor([40.0, 30.0, 20.0, 10.0], dtype=torch.float64)
    _compress(comp, "a", a)
    _compress(comp, "b", b)
    values, indices = _compress(comp, "a", torch.zeros(4, dtype=torch.float64))
    dense = _dense(values, indices, 4)
    assert torch.equal(dense, torch.tensor([1.0, 2.0, 0.0, 0.0], dtype=torch.float64)), say(
        "tensor 'a' sent 3 and 4 and kept [1, 2, 0, 0]; tensor 'b' has a residual of its own. A zero gradient for "
        f"'a' should send [1, 2, 0, 0]; sent {dense.tolist()} (keep one residual per name)",
        "tensor 'a' 发送了 3 和 4，留下 [1, 2, 0, 0]；tensor 'b' 有它自己的 residual。"
        f"给 'a' 一个零梯度，应发送 [1, 2, 0, 0]；实际发送的是 {dense.tolist()}（每个名字保留一份 residual）",
    )


def test_decompress_and_input_untouched(entry):
    comp = entry(0.25)
    g = torch.tensor([[0.1, -3.0, 0.2, 0.3], [2.0, 0.0, -0.4, 0.5]], dtype=torch.float64)
    before = g.clone()
    values, indices = _compress(comp, "w", g)
    assert torch.equal(g, before), say("compress changed the gradient it was given; work on a copy",
                                       "compress 修改了传给它的梯度；请在副本上操作")
    dense = entry.decompress(values, indices, g.shape)
    want = torch.tensor([[0.0, -3.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0]], dtype=torch.float64)
    assert tuple(dense.shape) == (2, 4) and torch.equal(dense.to(torch.float64), want), say(
        f"decompress(values, indices, (2, 4)) should give {want.tolist()}, got "
        f"{dense.tolist() if hasattr(dense, 'tolist') else dense}",
        f"decompress(values, indices, (2, 4)) 应得到 {want.tolist()}，实际是 "
        f"{dense.tolist() if hasattr(dense, 'tolist') else dense}",
    )
