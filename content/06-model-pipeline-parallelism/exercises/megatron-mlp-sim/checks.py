"""The unsplit MLP and the tests: output, per-rank partial sums, and gradients of all five inputs."""

import torch
import torch.nn.functional as F

NAMES = ("x", "w1", "b1", "w2", "b2")


def mlp(x, w1, b1, w2, b2):
    return F.gelu(x @ w1 + b1) @ w2 + b2


def make(n, d, ffn, seed):
    gen = torch.Generator().manual_seed(seed)
    shapes = [(n, d), (d, ffn), (ffn,), (ffn, d), (d,)]
    return [(torch.rand(s, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_(True) for s in shapes]


def _call(entry, tensors, tp):
    res = entry(*tensors, tp)
    assert isinstance(res, (tuple, list)) and len(res) == 2, "megatron_mlp should return a pair (out, partials)"
    out, partials = res
    assert isinstance(out, torch.Tensor), f"out should be a tensor, got {type(out).__name__}"
    assert isinstance(partials, (list, tuple)) and len(partials) == tp, (
        f"partials should be a list of tp={tp} tensors (one per rank), got "
        + (f"{len(partials)}" if isinstance(partials, (list, tuple)) else type(partials).__name__)
    )
    return out, list(partials)


def _where(a, b):
    diff = (a - b).abs()
    i = int(diff.argmax())
    idx = tuple(int(k) for k in torch.unravel_index(torch.tensor(i), a.shape))
    return idx, float(b.reshape(-1)[i]), float(a.reshape(-1)[i]), float(diff.max())


def test_output_matches_unsplit(entry):
    for tp, (n, d, ffn) in ((2, (5, 6, 16)), (4, (3, 4, 8)), (1, (2, 3, 4))):
        ts = make(n, d, ffn, seed=tp)
        out, _ = _call(entry, ts, tp)
        want = mlp(*ts)
        assert tuple(out.shape) == tuple(want.shape), f"tp={tp}: out has shape {tuple(out.shape)}, expected {tuple(want.shape)}"
        if not torch.allclose(out, want, atol=1e-10, rtol=1e-8):
            idx, e, g, m = _where(out, want)
            extra = ""
            if torch.allclose(out, want + (tp - 1) * ts[4], atol=1e-10):
                extra = f": that is b2 counted tp={tp} times; add it once, after the all-reduce"
            elif torch.allclose(out * tp, want + (tp - 1) * ts[4], atol=1e-10) or torch.allclose(out, (want - ts[4]) / tp + ts[4], atol=1e-10):
                extra = ": that is the mean of the partials; the row-parallel all-reduce sums them"
            assert False, f"tp={tp}: out{list(idx)} should be {e:.6g} (the unsplit MLP) but is {g:.6g}; largest difference {m:.3g}{extra}"


def test_partials_per_rank(entry):
    tp, (n, d, ffn) = 4, (3, 5, 12)
    ts = make(n, d, ffn, seed=9)
    x, w1, b1, w2, b2 = ts
    _, partials = _call(entry, ts, tp)
    size = ffn // tp
    for r, part in enumerate(partials):
        cols = slice(r * size, (r + 1) * size)
        want = F.gelu(x @ w1[:, cols] + b1[cols]) @ w2[cols, :]
        assert tuple(part.shape) == (n, d), f"rank {r}'s partial has shape {tuple(part.shape)}, expected ({n}, {d})"
        if not torch.allclose(part, want, atol=1e-10, rtol=1e-8):
            extra = ""
            if torch.allclose(part, want + b2, atol=1e-10):
                extra = ": it includes b2, which belongs after the all-reduce"
            assert False, (
                f"rank {r}'s partial (tp={tp}, hidden {ffn}) should be gelu(x @ w1[:, {r * size}:{(r + 1) * size}] + "
                f"b1[{r * size}:{(r + 1) * size}]) @ w2[{r * size}:{(r + 1) * size}, :], but differs by up to "
                f"{float((part - want).abs().max()):.3g}{extra}; rank r owns hidden units r*F/tp to (r+1)*F/tp, and GeLU "
                "must act on complete hidden values, which only a column split of w1 gives without communication"
            )


def test_gradients_match_unsplit(entry):
    for tp, (n, d, ffn) in ((2, (4, 6, 10)), (4, (3, 5, 8))):
        ts = make(n, d, ffn, seed=20 + tp)
        out, _ = _call(entry, ts, tp)
        gen = torch.Generator().manual_seed(5)
        g = torch.rand(out.shape, generator=gen, dtype=torch.float64) * 2 - 1
        assert out.requires_grad, "out has no autograd graph: keep the weight shards as slices (views) of w1, b1, w2 so gradients reach them"
        got = torch.autograd.grad(out, ts, g, allow_unused=True)
        want = torch.autograd.grad(mlp(*ts), ts, g)
        for name, a, b in zip(NAMES, got, want):
            assert a is not None, (
                f"tp={tp}: no gradient reached {name}; shards made with .detach(), .clone().detach() or torch.tensor(...) "
                "cut the graph: slice the full tensors instead"
            )
            if not torch.allclose(a, b, atol=1e-10, rtol=1e-8):
                idx, e, gg, m = _where(a, b)
                assert False, (
                    f"tp={tp}: the gradient of {name}{list(idx)} should be {e:.6g} (unsplit MLP) but is {gg:.6g}; "
                    f"largest difference {m:.3g}"
                )
