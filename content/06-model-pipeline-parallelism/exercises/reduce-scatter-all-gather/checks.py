"""A recording network and the tests: shard contents, gather order, elements sent per rank, RS + AG = all-reduce."""

import torch


class Network:
    """Delivers copies between ranks and counts the elements each rank sends."""

    def __init__(self, p):
        self.p = p
        self.sent = [0] * p

    def __call__(self, src, dst, t):
        assert isinstance(t, torch.Tensor), f"send(src, dst, t) expects a tensor, got {type(t).__name__}"
        assert 0 <= src < self.p and 0 <= dst < self.p, f"send({src}, {dst}, ...): ranks run from 0 to {self.p - 1}"
        assert src != dst, f"rank {src} sent to itself; a rank's own data needs no network"
        self.sent[src] += t.numel()
        return t.detach().clone()


def inputs(p, n, seed):
    gen = torch.Generator().manual_seed(seed)
    # small integers as float64, so sums are exact
    return [torch.randint(-9, 10, (n,), generator=gen).to(torch.float64) for _ in range(p)]


def _as_list(out, p, what):
    assert isinstance(out, (list, tuple)) and len(out) == p, (
        f"{what} should return a list of {p} tensors (one per rank), got {type(out).__name__}"
        + (f" of length {len(out)}" if isinstance(out, (list, tuple)) else "")
    )
    return list(out)


def test_reduce_scatter_shards(entry):
    for p, n in ((4, 12), (3, 6), (2, 4)):
        xs = inputs(p, n, seed=p)
        total = torch.stack(xs).sum(0)
        shards = _as_list(entry.reduce_scatter([x.clone() for x in xs], Network(p)), p, "reduce_scatter")
        for r, s in enumerate(shards):
            want = total.chunk(p)[r]
            assert tuple(s.shape) == (n // p,), f"P={p}, N={n}: rank {r}'s shard has shape {tuple(s.shape)}, expected ({n // p},)"
            if torch.equal(s, want):
                continue
            hint = ""
            for c, other in enumerate(total.chunk(p)):
                if torch.equal(s, other):
                    hint = f": that is chunk {c} of the sum; rank r must own chunk r"
            if not hint and torch.equal(s * p, want):
                hint = ": that is the mean; reduce-scatter sums (averaging, as DDP does, is a separate division)"
            assert False, f"P={p}, N={n}: rank {r}'s shard is {s.tolist()}, expected chunk {r} of the sum {want.tolist()}{hint}"


def test_all_gather_order(entry):
    for p, n in ((4, 3), (3, 2), (2, 5)):
        shards = [torch.arange(n, dtype=torch.float64) + 100 * r for r in range(p)]
        outs = _as_list(entry.all_gather([s.clone() for s in shards], Network(p)), p, "all_gather")
        want = torch.cat(shards)
        for r, y in enumerate(outs):
            assert torch.equal(y, want), (
                f"P={p}: rank {r} gathered {y.tolist()}, expected {want.tolist()} "
                f"(shard k, whose values start at 100k, belongs at position k, whichever rank it arrived from)"
            )


def test_reduce_scatter_volume(entry):
    for p, n in ((4, 16), (8, 64), (2, 8)):
        net = Network(p)
        entry.reduce_scatter(inputs(p, n, seed=30 + p), net)
        want = (p - 1) * n // p
        for r in range(p):
            assert net.sent[r] == want, (
                f"reduce_scatter with P={p}, N={n}: rank {r} sent {net.sent[r]} elements, expected (P-1)/P * N = {want}"
                + ("; sending the whole tensor to every peer costs (P-1) * N" if net.sent[r] == (p - 1) * n else "")
            )


def test_all_gather_volume(entry):
    for p, n in ((4, 4), (8, 8), (2, 4)):
        net = Network(p)
        entry.all_gather([torch.ones(n, dtype=torch.float64) * r for r in range(p)], net)
        want = (p - 1) * n
        for r in range(p):
            assert net.sent[r] == want, (
                f"all_gather with P={p} shards of {n} (N = {p * n}): rank {r} sent {net.sent[r]} elements, "
                f"expected (P-1)/P * N = {want}"
            )


def test_together_make_all_reduce(entry):
    p, n = 4, 20
    xs = inputs(p, n, seed=7)
    keep = [x.clone() for x in xs]
    net = Network(p)
    outs = _as_list(entry.all_gather(entry.reduce_scatter(xs, net), net), p, "all_gather")
    for r, x in enumerate(xs):
        assert torch.equal(x, keep[r]), f"rank {r}'s input was changed in place; work on copies"
    total = torch.stack(keep).sum(0)
    for r, y in enumerate(outs):
        if not torch.equal(y, total):
            bad = (y != total).nonzero().flatten().tolist() if y.shape == total.shape else [0]
            i = bad[0]
            assert False, (
                f"rank {r}: all_gather(reduce_scatter(x)) should equal the all-reduce sum; first difference at element {i}: "
                f"expected {total[i].item()}, got {y.reshape(-1)[i].item() if y.numel() > i else 'nothing'} "
                f"({len(bad)} of {n} elements wrong)"
            )
    for r in range(p):
        assert net.sent[r] == 2 * (p - 1) * n // p, (
            f"rank {r} sent {net.sent[r]} elements over both phases, expected 2(P-1)/P * N = {2 * (p - 1) * n // p}, "
            "the same as one ring all-reduce"
        )
