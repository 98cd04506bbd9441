"""Reference product, the expected tile traffic, and a recorder that sees every matrix product."""

import torch

from quiz.grader.say import say

PRODUCTS = {"matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "addmm", "einsum", "tensordot", "mv", "dot", "inner", "outer", "linear"}


def reference(A, B, tile_m, tile_n, tile_k):
    return A @ B


def expected_loads(M, K, N, tm, tn):
    """Each A element is loaded once per column block of C, each B element once per row block."""
    return M * K * -(-N // tn) + K * N * -(-M // tm)


class Recorder(torch.Tensor):
    """A tensor subclass that notes the operand shapes of every matrix product it takes part in."""

    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in PRODUCTS:
            shapes = [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]
            cls.calls.append((name, shapes))
        return super().__torch_function__(func, types, args, kwargs or {})


def _inputs(M, K, N, seed):
    gen = torch.Generator().manual_seed(seed)
    A = torch.rand(M, K, generator=gen, dtype=torch.float64) * 2 - 1
    B = torch.rand(K, N, generator=gen, dtype=torch.float64) * 2 - 1
    return A, B


def _call(entry, A, B, tiles):
    out = entry(A, B, *tiles)
    assert isinstance(out, tuple) and len(out) == 2, say(
        f"tiled_matmul should return a pair (C, elements_loaded), got {type(out).__name__}",
        f"tiled_matmul 应返回二元组 (C, elements_loaded)，实际返回了 {type(out).__name__}",
    )
    return out


def test_elements_loaded(entry):
    for (M, K, N), tiles in (((37, 29, 23), (8, 8, 8)), ((37, 29, 23), (5, 7, 3)), ((16, 16, 16), (16, 16, 16)),
                             ((6, 5, 4), (1, 1, 1))):
        A, B = _inputs(M, K, N, 0)
        _, loaded = _call(entry, A, B, tiles)
        want = expected_loads(M, K, N, tiles[0], tiles[1])
        assert loaded == want, say(
            f"A {M}x{K} @ B {K}x{N} with tiles (tile_m, tile_n, tile_k) = {tiles}: expected {want} elements loaded "
            f"(A's {M * K} elements once per column block of C, ceil({N}/{tiles[1]}) = {-(-N // tiles[1])} times; "
            f"B's {K * N} once per row block, ceil({M}/{tiles[0]}) = {-(-M // tiles[0])} times; edge tiles count only "
            f"the elements they hold), got {loaded!r}",
            f"A {M}x{K} @ B {K}x{N}，tile (tile_m, tile_n, tile_k) = {tiles}：应加载 {want} 个元素"
            f"（A 的 {M * K} 个元素对 C 的每个列块各加载一次，共 ceil({N}/{tiles[1]}) = {-(-N // tiles[1])} 次；"
            f"B 的 {K * N} 个元素对每个行块各加载一次，共 ceil({M}/{tiles[0]}) = {-(-M // tiles[0])} 次；边缘 tile "
            f"只计它实际包含的元素），实际是 {loaded!r}",
        )


def test_products_stay_within_tiles(entry):
    M, K, N, tm, tn, tk = 37, 29, 23, 8, 8, 8
    A, B = _inputs(M, K, N, 1)
    Recorder.calls = []
    C, _ = _call(entry, A.as_subclass(Recorder), B.as_subclass(Recorder), (tm, tn, tk))
    limit = max(tm * tk, tk * tn, tm * tn)
    too_big = [(name, shapes) for name, shapes in Recorder.calls if any(torch.Size(s).numel() > limit for s in shapes)]
    assert not too_big, say(
        f"with tiles of 8 no matrix product should see an operand bigger than 8x8, but {too_big[0][0]} got operands "
        f"of shapes {too_big[0][1]}: multiply tile by tile instead of whole matrices",
        f"tile 为 8 时，任何矩阵乘的操作数都不应大于 8x8，但 {too_big[0][0]} 收到的操作数形状是 "
        f"{too_big[0][1]}：应逐个 tile 相乘，而不是整块矩阵相乘",
    )
    C = C.as_subclass(torch.Tensor)
    assert torch.allclose(C, A @ B, atol=1e-10), say("the result differs from A @ B", "结果与 A @ B 不一致")


def observe():
    """What Recorder saw during one call of the learner's code (sent to the judge with the call's record)."""
    return [(name, [tuple(s) for s in shapes]) for name, shapes in Recorder.calls]


def restore(observed):
    """On the judge's side: Recorder as the learner's call left it."""
    Recorder.calls = [(str(name), [tuple(int(d) for d in s) for s in shapes]) for name, shapes in observed]
