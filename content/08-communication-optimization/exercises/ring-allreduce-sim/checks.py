"""A recording network for the simulated ring, and the tests: sums, neighbours only, elements sent per rank."""

import torch

from quiz.grader.say import say


class Network:
    """Delivers copies between ranks and counts what each rank sends; only ring neighbours may talk."""

    def __init__(self, p):
        self.p = p
        self.sent = [0] * p
        self.messages = [0] * p
        self.log = []  # (src, payload) in the order sent

    def __call__(self, src, dst, t):
        assert isinstance(t, torch.Tensor), say(f"send(src, dst, t) expects a tensor, got {type(t).__name__}",
                                                f"send(src, dst, t) 需要一个 tensor，实际收到 {type(t).__name__}")
        assert 0 <= src < self.p and 0 <= dst < self.p, say(f"send({src}, {dst}, ...): ranks run from 0 to {self.p - 1}",
                                                            f"send({src}, {dst}, ...)：rank 的范围是 0 到 {self.p - 1}")
        assert dst == (src + 1) % self.p, say(
            f"rank {src} sent to rank {dst}; in a ring each rank sends only to its right neighbour "
            f"(src + 1) % P = {(src + 1) % self.p}",
            f"rank {src} 发给了 rank {dst}；ring 里每个 rank 只发给它右边的邻居 "
            f"(src + 1) % P = {(src + 1) % self.p}",
        )
        self.sent[src] += t.numel()
        self.messages[src] += 1
        self.log.append((src, t.detach().clone()))
        return t.detach().clone()


def inputs(p, n, seed=0):
    gen = torch.Generator().manual_seed(seed)
    # small integers as float64: the sums are exact, so any wrong chunk shows up exactly
    return [torch.randint(-9, 10, (n,), generator=gen).to(torch.float64) for _ in range(p)]


def _run(entry, p, n, seed=0):
    xs = inputs(p, n, seed)
    keep = [x.clone() for x in xs]
    net = Network(p)
    out = entry(xs, net)
    assert isinstance(out, (list, tuple)) and len(out) == p, say(
        f"expected a list of {p} tensors (one per rank), got {type(out).__name__}"
        + (f" of length {len(out)}" if isinstance(out, (list, tuple)) else ""),
        f"应返回 {p} 个 tensor 组成的列表（每个 rank 一个），实际是 {type(out).__name__}"
        + (f"，长度 {len(out)}" if isinstance(out, (list, tuple)) else ""),
    )
    return xs, keep, net, out


def test_every_rank_gets_the_sum(entry):
    for p, n in ((4, 12), (3, 9), (2, 4)):
        xs, keep, net, out = _run(entry, p, n, seed=p)
        expected = torch.stack(keep).sum(0)
        for r, y in enumerate(out):
            assert tuple(y.shape) == (n,), say(f"P={p}, N={n}: rank {r}'s result has shape {tuple(y.shape)}, expected ({n},)",
                                               f"P={p}，N={n}：rank {r} 结果的形状是 {tuple(y.shape)}，应为 ({n},)")
            bad = (y != expected).nonzero().flatten().tolist()
            assert not bad, say(
                f"P={p}, N={n}: rank {r}'s result is wrong at element(s) {bad[:6]} "
                f"(expected {expected[bad[:3]].tolist()}, got {y[bad[:3]].tolist()}): "
                f"each chunk must be reduced over all P ranks, then gathered to every rank",
                f"P={p}，N={n}：rank {r} 的结果在元素 {bad[:6]} 处不对"
                f"（应为 {expected[bad[:3]].tolist()}，实际是 {y[bad[:3]].tolist()}）："
                f"每个 chunk 都必须在全部 P 个 rank 上 reduce，然后 gather 到每个 rank",
            )


def test_inputs_unchanged(entry):
    xs, keep, net, out = _run(entry, 4, 8, seed=11)
    for r, (x, k) in enumerate(zip(xs, keep)):
        assert torch.equal(x, k), say(f"rank {r}'s input tensor was changed in place; work on copies and return new tensors",
                                      f"rank {r} 的输入 tensor 被原地修改了；请在副本上操作，并返回新的 tensor")


def test_volume_per_rank(entry):
    for p, n in ((4, 16), (5, 20), (8, 64), (2, 8)):
        xs, keep, net, out = _run(entry, p, n, seed=p + 20)
        want = 2 * (p - 1) * n // p
        for r in range(p):
            naive = say(" (that is (P-1) * N: whole tensors were sent, not N/P chunks)",
                        "（这是 (P-1) * N：发送的是整个 tensor，而不是 N/P 大小的 chunk）") if net.sent[r] == (p - 1) * n else ""
            assert net.sent[r] == want, say(
                f"P={p}, N={n}: rank {r} sent {net.sent[r]} elements{naive}, expected 2(P-1)/P * N = {want}: "
                f"one chunk of N/P = {n // p} elements per step for 2(P-1) = {2 * (p - 1)} steps",
                f"P={p}，N={n}：rank {r} 发送了 {net.sent[r]} 个元素{naive}，应为 2(P-1)/P * N = {want}："
                f"共 2(P-1) = {2 * (p - 1)} 步，每步一个 N/P = {n // p} 个元素的 chunk",
            )
        for r in range(p):
            assert net.messages[r] == 2 * (p - 1), say(
                f"P={p}, N={n}: rank {r} sent {net.messages[r]} messages, expected 2(P-1) = {2 * (p - 1)}: "
                f"P-1 reduce-scatter steps and P-1 all-gather steps, one chunk each",
                f"P={p}，N={n}：rank {r} 发送了 {net.messages[r]} 条消息，应为 2(P-1) = {2 * (p - 1)} 条："
                f"P-1 步 reduce-scatter 加 P-1 步 all-gather，每步一个 chunk",
            )


def test_single_rank(entry):
    xs, keep, net, out = _run(entry, 1, 5, seed=3)
    assert torch.equal(out[0], keep[0]), say(
        f"with P=1 the all-reduce is the input itself; got {out[0].tolist()}, expected {keep[0].tolist()}",
        f"P=1 时 all-reduce 的结果就是输入本身；实际是 {out[0].tolist()}，应为 {keep[0].tolist()}")
    assert net.sent == [0], say(f"with P=1 nothing needs to be sent, but rank 0 sent {net.sent[0]} elements",
                                f"P=1 时什么都不用发送，但 rank 0 发送了 {net.sent[0]} 个元素")


def expected_messages(xs):
    """What rank r sends at each of its 2(P-1) steps in the algorithm of the statement."""
    p = len(xs)
    chunks = [list(x.clone().chunk(p)) for x in xs]
    sent = [[] for _ in range(p)]
    for step in range(p - 1):
        moving = [(r, (r - step) % p, chunks[r][(r - step) % p].clone()) for r in range(p)]
        for r, c, data in moving:
            sent[r].append(data)
            dst = (r + 1) % p
            chunks[dst][c] = chunks[dst][c] + data
    for step in range(p - 1):
        moving = [(r, (r + 1 - step) % p, chunks[r][(r + 1 - step) % p].clone()) for r in range(p)]
        for r, c, data in moving:
            sent[r].append(data)
            chunks[(r + 1) % p][c] = data
    return sent


def test_every_message_carries_the_algorithms_chunk(entry):
    for p, n in ((4, 12), (3, 6)):
        xs, keep, net, out = _run(entry, p, n, seed=40 + p)
        want = expected_messages(keep)
        got = [[t for src, t in net.log if src == r] for r in range(p)]
        for r in range(p):
            assert len(got[r]) == len(want[r]), say(f"P={p}: rank {r} sent {len(got[r])} messages, expected {len(want[r])}",
                                                    f"P={p}：rank {r} 发送了 {len(got[r])} 条消息，应为 {len(want[r])} 条")
            for k, (g, w) in enumerate(zip(got[r], want[r])):
                phase = "reduce-scatter" if k < p - 1 else "all-gather"
                step = k if k < p - 1 else k - (p - 1)
                assert g.shape == w.shape and torch.equal(g, w), say(
                    f"P={p}, N={n}: rank {r}'s message {k + 1} ({phase} step {step}) should carry {w.tolist()} "
                    f"but carried {g.tolist()}: in reduce-scatter step s rank r sends its running sum of chunk (r - s) % P, "
                    "in all-gather step s the finished chunk (r + 1 - s) % P",
                    f"P={p}，N={n}：rank {r} 的第 {k + 1} 条消息（{phase} 第 {step} 步）应携带 {w.tolist()}，"
                    f"实际携带的是 {g.tolist()}：reduce-scatter 第 s 步，rank r 发送 chunk (r - s) % P 的累加和；"
                    "all-gather 第 s 步，发送已完成的 chunk (r + 1 - s) % P",
                )
