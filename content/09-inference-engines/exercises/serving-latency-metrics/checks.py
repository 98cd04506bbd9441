"""A torch.quantile reference for serving latency metrics, traces from seeded generators, and the usual mistakes."""

import math

import torch

from quiz.grader.say import say

_quantile = torch.quantile  # taken when the checks load, before any learner code runs
_tensor = torch.tensor
_Generator = torch.Generator
_rand = torch.rand
_randint = torch.randint

METRICS = ("ttft", "tpot", "itl", "e2el")
NAMES = {"ttft": ("TTFT", "TTFT"), "tpot": ("TPOT", "TPOT"), "itl": ("ITL", "ITL"), "e2el": ("end-to-end latency", "端到端延迟")}


def stats(samples, percentiles, pick=None):
    if not samples:
        return {}
    x = _tensor(samples, dtype=torch.float64)
    out = {"mean": x.mean().item()}
    for p in percentiles:
        out[f"p{p:g}"] = pick(samples, p) if pick else _quantile(x, p / 100).item()
    return out


def nearest_rank(samples, p):
    s = sorted(samples)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def floor_index(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def samples(requests, variant=""):
    """Per-metric sample lists; `variant` builds a usual mistake instead of the right answer."""
    ttft, tpot, itl, e2el = [], [], [], []
    for r in requests:
        sent, tok = r["sent"], r["tokens"]
        n = len(tok)
        ttft.append(tok[0] - sent)
        e2el.append(tok[-1] - sent)
        if variant == "tpot_zero_for_single" and n == 1:
            tpot.append(0.0)
        if variant == "tpot_over_n" and n > 1:
            tpot.append((tok[-1] - tok[0]) / n)
        elif variant == "tpot_with_ttft" and n > 1:
            tpot.append((tok[-1] - sent) / n)
        elif n > 1:
            tpot.append((tok[-1] - tok[0]) / (n - 1))
        gaps = [b - a for a, b in zip(tok, tok[1:])]
        if variant == "itl_per_request" and gaps:
            itl.append(sum(gaps) / len(gaps))
        elif variant == "itl_with_ttft":
            itl += [tok[0] - sent] + gaps
        else:
            itl += gaps
    return {"ttft": ttft, "tpot": tpot, "itl": itl, "e2el": e2el}


def reference(requests, percentiles=(50, 90, 99)):
    s = samples(requests)
    out = {m: stats(s[m], percentiles) for m in METRICS}
    start = min(r["sent"] for r in requests)
    end = max(r["tokens"][-1] for r in requests)
    out["output_throughput"] = sum(len(r["tokens"]) for r in requests) / (end - start)
    return out


MISTAKES = {
    "nearest_rank": ("a nearest-rank percentile (a sample picked without interpolation); use linear interpolation "
                     "between the two closest ranks, as torch.quantile and numpy.percentile do by default",
                     "最近秩分位数（直接取某个样本，没有插值）；应在相邻两个秩之间线性插值，torch.quantile 和 numpy.percentile 默认如此"),
    "tpot_over_n": ("TPOT divided by n tokens; n tokens leave only n - 1 gaps after the first one, so divide by n - 1",
                    "TPOT 除以了 token 数 n；n 个 token 在第一个之后只有 n - 1 个间隔，应除以 n - 1"),
    "tpot_with_ttft": ("TPOT that includes the time to the first token; TPOT counts only the decode time after it",
                       "TPOT 把首 token 时间也算进去了；TPOT 只统计首 token 之后的 decode 时间"),
    "tpot_zero_for_single": ("single-token requests counted with a TPOT of 0; a request with one token has no TPOT and "
                             "must be left out, or it drags the TPOT percentiles down",
                             "单 token 请求被记成 TPOT = 0；只有一个 token 的请求没有 TPOT，必须排除，否则会拉低 TPOT 分位数"),
    "itl_per_request": ("one averaged gap per request (that is TPOT again); ITL pools every gap between consecutive "
                        "tokens of every request",
                        "每个请求只取了一个平均间隔（那又是 TPOT 了）；ITL 应汇集所有请求中相邻 token 之间的每一个间隔"),
    "itl_with_ttft": ("the wait for the first token counted as an inter-token gap; ITL starts at the second token",
                      "把等待首 token 的时间当成了一个 token 间隔；ITL 从第二个 token 开始"),
}


def _close(a, b):
    return isinstance(a, (int, float)) and not isinstance(a, bool) and abs(a - b) <= 1e-9 + 1e-9 * abs(b)


def _same_stats(got, want):
    return isinstance(got, dict) and set(got) == set(want) and all(_close(got[k], want[k]) for k in want)


def _diagnose(requests, metric, percentiles, got):
    s = samples(requests)
    candidates = {
        "nearest_rank": stats(s[metric], percentiles, nearest_rank),
        "floor_index": stats(s[metric], percentiles, floor_index),
    }
    for variant in ("tpot_over_n", "tpot_with_ttft", "tpot_zero_for_single", "itl_per_request", "itl_with_ttft"):
        if variant.startswith(metric):
            candidates[variant] = stats(samples(requests, variant)[metric], percentiles)
    for name, value in candidates.items():
        if value != stats(s[metric], percentiles) and _same_stats(got, value):
            en, zh = MISTAKES["nearest_rank" if name == "floor_index" else name]
            return say(f" This looks like {en}.", f"看起来是这个错误：{zh}。")
    return ""


def _call(entry, requests, percentiles=None):
    got = entry(requests) if percentiles is None else entry(requests, percentiles)
    assert isinstance(got, dict), say(f"latency_report should return a dict, got {type(got).__name__}",
                                      f"latency_report 应返回 dict，实际返回了 {type(got).__name__}")
    want_keys = {*METRICS, "output_throughput"}
    assert set(got) == want_keys, say(f"the report's keys should be {sorted(want_keys)}, got {sorted(map(str, got))}",
                                      f"报告的键应为 {sorted(want_keys)}，实际是 {sorted(map(str, got))}")
    return got


def _check_metric(requests, percentiles, got, metric, note=("", "")):
    want = reference(requests, percentiles)[metric]
    value = got[metric]
    label_en, label_zh = NAMES[metric]
    assert isinstance(value, dict), say(f"report['{metric}'] should be a dict of statistics, got {type(value).__name__}",
                                        f"report['{metric}'] 应是统计量组成的 dict，实际是 {type(value).__name__}")
    assert set(value) == set(want), say(
        f"report['{metric}'] should have the keys {sorted(want)}, got {sorted(map(str, value))}"
        + (" (no request has two tokens, so there are no samples: return {})" if not want else ""),
        f"report['{metric}'] 的键应为 {sorted(want)}，实际是 {sorted(map(str, value))}"
        + ("（没有请求有两个 token，因此没有样本：应返回 {}）" if not want else ""),
    )
    for key in want:
        if not _close(value[key], want[key]):
            shown = {k: round(v, 6) if isinstance(v, float) else v for k, v in value.items()}
            expected = {k: round(v, 6) for k, v in want.items()}
            hint = _diagnose(requests, metric, percentiles, value)
            raise AssertionError(say(
                f"{label_en} {key}: expected {want[key]:.6f}, got {value[key]!r}.{hint}{note[0]} "
                f"All statistics: expected {expected}, got {shown}",
                f"{label_zh} {key}：应为 {want[key]:.6f}，实际是 {value[key]!r}。{hint}{note[1]}"
                f"全部统计量：应为 {expected}，实际是 {shown}",
            ))


def trace(seed, count, max_tokens=12, single_every=0):
    """Requests sent over a few seconds; each waits a while for its first token, then streams with jitter."""
    gen = _Generator().manual_seed(seed)
    out = []
    for i in range(count):
        sent = round(_rand(1, generator=gen, dtype=torch.float64).item() * 5, 6)
        n = 1 if single_every and i % single_every == 0 else int(_randint(2, max_tokens + 1, (1,), generator=gen))
        t = sent + 0.05 + _rand(1, generator=gen, dtype=torch.float64).item() * 0.8
        tokens = [round(t, 6)]
        for _ in range(n - 1):
            t += 0.01 + _rand(1, generator=gen, dtype=torch.float64).item() * 0.05
            tokens.append(round(t, 6))
        out.append({"sent": sent, "tokens": tokens})
    return out


HAND = [
    {"sent": 0.0, "tokens": [0.5, 0.6, 0.7, 0.8]},
    {"sent": 1.0, "tokens": [1.2, 1.5]},
    {"sent": 2.0, "tokens": [3.0]},
]


def test_ttft_and_e2el_on_a_small_trace(entry):
    got = _call(entry, HAND, (50,))
    note = (" Three requests: TTFT = first token - sent = 0.5, 0.2, 1.0; end-to-end = last token - sent = 0.8, 0.5, 1.0.",
            "三个请求：TTFT = 首 token 时刻 - 发送时刻 = 0.5、0.2、1.0；端到端 = 末 token 时刻 - 发送时刻 = 0.8、0.5、1.0。")
    _check_metric(HAND, (50,), got, "ttft", note)
    _check_metric(HAND, (50,), got, "e2el", note)


def test_percentiles_interpolate_like_torch_quantile(entry):
    reqs = trace(1, 37)
    pct = (50, 90, 95, 99)
    got = _call(entry, reqs, pct)
    for metric in ("ttft", "e2el"):
        _check_metric(reqs, pct, got, metric, (" (37 requests, compared with torch.quantile)",
                                               "（37 个请求，与 torch.quantile 比较）"))


def test_tpot_excludes_the_first_token(entry):
    got = _call(entry, HAND, (50,))
    _check_metric(HAND, (50,), got, "tpot", (
        " On the small trace: (0.8 - 0.5) / 3 = 0.1 and (1.5 - 1.2) / 1 = 0.3; the one-token request has no TPOT.",
        "小 trace 上：(0.8 - 0.5) / 3 = 0.1，(1.5 - 1.2) / 1 = 0.3；只有一个 token 的请求没有 TPOT。"))
    reqs = trace(2, 29)
    pct = (50, 90, 99)
    _check_metric(reqs, pct, _call(entry, reqs, pct), "tpot")


def test_single_token_requests_have_no_tpot(entry):
    reqs = trace(3, 30, single_every=3)
    pct = (50, 90, 99)
    got = _call(entry, reqs, pct)
    _check_metric(reqs, pct, got, "tpot", (" (every third request has a single token)", "（每三个请求里有一个只有一个 token）"))
    lone = [{"sent": 0.0, "tokens": [0.3]}, {"sent": 0.1, "tokens": [0.9]}]
    got = _call(entry, lone, pct)
    _check_metric(lone, pct, got, "tpot")
    _check_metric(lone, pct, got, "itl")


def test_itl_pools_every_gap(entry):
    reqs = trace(4, 23, max_tokens=20)
    pct = (50, 90, 99)
    got = _call(entry, reqs, pct)
    _check_metric(reqs, pct, got, "itl", (" (23 requests with 2 to 20 tokens each)", "（23 个请求，每个 2 到 20 个 token）"))


def test_default_percentiles(entry):
    reqs = trace(5, 11)
    got = _call(entry, reqs)
    for metric in METRICS:
        _check_metric(reqs, (50, 90, 99), got, metric, (" (called without percentiles: the default is (50, 90, 99))",
                                                        "（调用时没有传 percentiles：默认值是 (50, 90, 99)）"))


def test_output_throughput(entry):
    reqs = trace(6, 17)
    want = reference(reqs)["output_throughput"]
    got = _call(entry, reqs)["output_throughput"]
    tokens = sum(len(r["tokens"]) for r in reqs)
    span = max(r["tokens"][-1] for r in reqs) - min(r["sent"] for r in reqs)
    assert _close(got, want), say(
        f"output_throughput: expected {tokens} tokens / {span:.6f} s = {want:.6f} tokens/s, got {got!r}: every output "
        "token of every request, over the span from the first request sent to the last token received",
        f"output_throughput：应为 {tokens} 个 token / {span:.6f} 秒 = {want:.6f} token/s，实际是 {got!r}："
        "所有请求的全部输出 token，除以从第一个请求发出到最后一个 token 收到的时间跨度",
    )
