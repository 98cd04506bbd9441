def latency_report(requests, percentiles=(50, 90, 99)):
    """TTFT, TPOT, ITL and end-to-end latency statistics, plus output throughput, from token timestamps.

    requests: a list of {"sent": float, "tokens": [float, ...]} (seconds).
    Returns {"ttft": stats, "tpot": stats, "itl": stats, "e2el": stats, "output_throughput": float},
    where stats is {"mean": ..., "p50": ..., "p90": ..., "p99": ...} ({} when there are no samples).
    """
    # TODO: per request, TTFT and end-to-end latency; TPOT over the n - 1 gaps after the first token
    #       (only for requests with two or more tokens); every gap into one ITL list
    # TODO: percentiles by linear interpolation between ranks (what torch.quantile does by default)
    raise NotImplementedError("latency_report")
