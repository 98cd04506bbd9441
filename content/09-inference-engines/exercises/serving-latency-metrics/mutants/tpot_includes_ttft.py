import torch


def _stats(samples, percentiles):
    if not samples:
        return {}
    x = torch.tensor(samples, dtype=torch.float64)
    out = {"mean": x.mean().item()}
    for p in percentiles:
        out[f"p{p:g}"] = torch.quantile(x, p / 100).item()  # linear interpolation between ranks
    return out


def latency_report(requests, percentiles=(50, 90, 99)):
    """TTFT, TPOT, ITL and end-to-end latency statistics, plus output throughput, from token timestamps."""
    ttft, tpot, itl, e2el = [], [], [], []
    for r in requests:
        sent, tokens = r["sent"], r["tokens"]
        ttft.append(tokens[0] - sent)
        e2el.append(tokens[-1] - sent)
        if len(tokens) > 1:
            tpot.append((tokens[-1] - sent) / len(tokens))  # time per output token, from the request being sent
            itl += [b - a for a, b in zip(tokens, tokens[1:])]
    start = min(r["sent"] for r in requests)
    end = max(r["tokens"][-1] for r in requests)
    total = sum(len(r["tokens"]) for r in requests)
    return {
        "ttft": _stats(ttft, percentiles),
        "tpot": _stats(tpot, percentiles),
        "itl": _stats(itl, percentiles),
        "e2el": _stats(e2el, percentiles),
        "output_throughput": total / (end - start),
    }
