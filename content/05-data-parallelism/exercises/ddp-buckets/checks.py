"""Bucket layouts worked out by hand (small caps) and for DDP's defaults (1 MiB first bucket, 25 MiB cap)."""

from quiz.grader.say import say

MiB = 2**20
SIZE = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}


def _bytes(params, bucket):
    table = {name: numel * SIZE[dtype] for name, numel, dtype in params}
    return [table[n] for n in bucket]


def _expect(entry, params, want, cap, first, what):
    got = entry([tuple(p) for p in params], cap, first)
    got = [list(b) for b in got] if isinstance(got, (list, tuple)) else got
    if got != want:
        sizes = [_bytes(params, b) for b in want]
        raise AssertionError(say(
            f"{what} (bucket_cap_bytes={cap}, first_bucket_bytes={first}): expected buckets {want}, got {got}; "
            f"bytes per parameter in the expected buckets: {sizes}",
            f"{what}（bucket_cap_bytes={cap}，first_bucket_bytes={first}）：bucket 应为 {want}，实际是 {got}；"
            f"期望的各 bucket 中每个参数的字节数：{sizes}",
        ))


# registration order; fp32, so bytes = 4 * numel
SMALL = [("a", 5, "float32"), ("b", 5, "float32"), ("c", 10, "float32"), ("d", 3, "float32"),
         ("e", 20, "float32"), ("f", 4, "float32"), ("g", 6, "float32")]


def test_reverse_registration_order(entry):
    params = [("w0", 2, "float32"), ("w1", 2, "float32"), ("w2", 2, "float32")]
    _expect(entry, params, [["w2", "w1", "w0"]], 100, 40,
            say("three small parameters fit in one bucket, in gradient-ready (reverse) order",
                "三个小参数放进同一个 bucket，按梯度就绪的顺序（逆序）排列"))


def test_close_once_the_limit_is_reached(entry):
    # walk g(24) f(16): 40 >= 40 closes the first bucket; e(80) d(12) c(40): 132 >= 100 closes; b, a are left
    _expect(entry, SMALL, [["g", "f"], ["e", "d", "c"], ["b", "a"]], 100, 40,
            say("a bucket closes right after the parameter that makes it reach its limit (it may overshoot)",
                "bucket 在使其达到上限的那个参数之后立即关闭（可以超出上限）"))


def test_small_first_bucket_then_cap(entry):
    params = [(f"p{i}", 5, "float32") for i in range(8)]  # 20 B each
    # first bucket closes at 40 B (2 params), later ones at 100 B (5 params)
    want = [["p7", "p6"], ["p5", "p4", "p3", "p2", "p1"], ["p0"]]
    _expect(entry, params, want, 100, 40, say("eight 20-byte parameters", "八个 20 字节的参数"))


def test_oversized_parameter(entry):
    params = [("big_a", 50, "float32"), ("big_b", 50, "float32"), ("tiny", 1, "float32")]
    _expect(entry, params, [["tiny", "big_b"], ["big_a"]], 100, 40,
            say("200-byte parameters with a 100-byte cap: one that starts an empty bucket is alone in it",
                "200 字节的参数、100 字节的上限：放进空 bucket 的那个参数独占这个 bucket"))


def test_element_sizes(entry):
    params = [("x64", 5, "float64"), ("x16", 10, "float16"), ("xbf", 10, "bfloat16")]
    # per dtype: float64 40 B reaches 40 alone; float16 20 B and bfloat16 20 B stay open
    _expect(entry, params, [["x64"], ["xbf"], ["x16"]], 100, 40,
            say("bytes are numel x element size (float64 8, float16/bfloat16 2); open buckets come last, in opening order",
                "字节数 = numel x 元素大小（float64 为 8，float16/bfloat16 为 2）；未关闭的 bucket 排在最后，按打开顺序"))


def test_dtypes_get_separate_buckets(entry):
    params = [("w1", 10, "float32"), ("h1", 10, "float16"), ("w2", 10, "float32"),
              ("h2", 30, "float16"), ("w3", 5, "float32")]
    # walk: w3 f32 20 | h2 f16 60 >= 40 closes [h2] | w2 f32 60 >= 40 closes [w3, w2] | h1 f16 20 | w1 f32 40 < 100
    _expect(entry, params, [["h2"], ["w3", "w2"], ["h1"], ["w1"]], 100, 40,
            say("float32 and float16 parameters never share a bucket; each dtype has its own first bucket",
                "float32 和 float16 参数从不共用 bucket；每种 dtype 有各自的第一个 bucket"))


def test_default_caps(entry):
    mlp = []
    for i in range(4):
        mlp += [(f"l{i}.weight", 4096 * 4096, "float32"), (f"l{i}.bias", 4096, "float32")]
    want = [[f"l{i}.bias", f"l{i}.weight"] for i in (3, 2, 1, 0)]
    _expect(entry, mlp, want, 25 * MiB, MiB, say("four 64 MiB fp32 layers with 16 KiB biases",
                                                   "四个 64 MiB 的 fp32 层，bias 各 16 KiB"))
    many = [(f"p{i}", 2**20, "float32") for i in range(40)]  # 4 MiB each
    want = [["p39"]] + [[f"p{j}" for j in range(top, top - 7, -1)] for top in (38, 31, 24, 17, 10)] + [["p3", "p2", "p1", "p0"]]
    _expect(entry, many, want, 25 * MiB, MiB, say("forty 4 MiB parameters: 1 MiB first bucket, then 7 x 4 = 28 MiB >= 25 MiB",
                                                    "四十个 4 MiB 的参数：第一个 bucket 1 MiB，之后 7 x 4 = 28 MiB >= 25 MiB"))
