"""Async fetch callbacks that count what runs at once (the judge sees the counts through observe/restore)."""

import asyncio
import random

from quiz.grader.say import say

_state = {"now": 0, "peak": 0, "started": 0, "cancelled": 0}


def observe():
    return dict(_state)


def restore(state):
    _state.update(state)


def _reset():
    _state.update(now=0, peak=0, started=0, cancelled=0)


def _fetcher(delays, fail=(), stuck=()):
    async def fetch(url):
        _state["started"] += 1
        _state["now"] += 1
        _state["peak"] = max(_state["peak"], _state["now"])
        try:
            if url in stuck:
                await asyncio.sleep(30)
            await asyncio.sleep(delays.get(url, 0.001))
            if url in fail:
                raise ConnectionError(f"{url}: connection reset")
            return f"body of {url}"
        except asyncio.CancelledError:
            _state["cancelled"] += 1
            raise
        finally:
            _state["now"] -= 1

    return fetch


def _run(entry, urls, fetch, limit, timeout, what):
    try:
        got = asyncio.run(asyncio.wait_for(entry(urls, fetch, limit, timeout), 2.0))
    except ConnectionError as exc:
        raise AssertionError(say(
            f"{what}: fetch_all raised {type(exc).__name__} ({exc}); one failing fetch must give None in its place, "
            f"not end the whole batch",
            f"{what}：fetch_all 抛出了 {type(exc).__name__}（{exc}）；一个请求失败应在其位置给出 None，而不是让整批结束",
        )) from None
    assert isinstance(got, list) and len(got) == len(urls), say(
        f"{what}: fetch_all should return a list of {len(urls)} results, got {str(got)[:100]}",
        f"{what}：fetch_all 应返回 {len(urls)} 个结果的列表，实际是 {str(got)[:100]}",
    )
    return got


def test_order(entry, seed):
    _reset()
    rng = random.Random(seed)
    urls = [f"s3://bucket/shard-{i:03d}" for i in range(12)]
    delays = {u: 0.002 * (12 - i) + rng.random() * 0.001 for i, u in enumerate(urls)}  # early URLs finish last
    got = _run(entry, urls, _fetcher(delays), 4, 1.0, "12 shards, limit 4")
    want = [f"body of {u}" for u in urls]
    assert got == want, say(
        f"12 shards, limit 4: results {got[:3]}... are not in the order of urls (the first URLs take longest here): "
        f"collect by position, e.g. with asyncio.gather, not in completion order",
        f"12 个分片，limit 4：结果 {got[:3]}... 不是 urls 的顺序（这里前面的 URL 最慢）：按位置收集（如 asyncio.gather），不要按完成顺序",
    )


def test_limit(entry):
    for n, limit in ((20, 3), (9, 1), (16, 5)):
        _reset()
        urls = [f"http://svc/{i}" for i in range(n)]
        _run(entry, urls, _fetcher({u: 0.005 for u in urls}), limit, 1.0, f"{n} URLs, limit {limit}")
        peak = _state["peak"]
        assert peak <= limit, say(
            f"{n} URLs, limit {limit}: {peak} fetches were in flight at once; hold a semaphore slot for the whole call",
            f"{n} 个 URL，limit {limit}：同时有 {peak} 个请求在进行；整个调用期间都要占着信号量的名额",
        )
        assert peak == limit, say(
            f"{n} URLs, limit {limit}: at most {peak} fetches ran at once; with {n} URLs, {limit} should overlap "
            f"(awaiting each fetch in turn is sequential)",
            f"{n} 个 URL，limit {limit}：同时最多只有 {peak} 个请求；{n} 个 URL 时应有 {limit} 个重叠（逐个 await 是串行）",
        )


def test_failures(entry):
    _reset()
    urls = [f"http://svc/{i}" for i in range(8)]
    bad = {urls[1], urls[5]}
    got = _run(entry, urls, _fetcher({u: 0.003 for u in urls}, fail=bad), 3, 1.0, "8 URLs, 2 failing")
    want = [None if u in bad else f"body of {u}" for u in urls]
    assert got == want, say(
        f"8 URLs where 1 and 5 raise ConnectionError: got {got}, expected {want} (None for each failure, the rest "
        f"still fetched)",
        f"8 个 URL，其中 1 和 5 抛出 ConnectionError：得到 {got}，应为 {want}（失败的位置是 None，其余照常）",
    )


def test_timeout(entry):
    _reset()
    urls = [f"http://svc/{i}" for i in range(6)]
    stuck = {urls[0], urls[3]}
    got = _run(entry, urls, _fetcher({u: 0.003 for u in urls}, stuck=stuck), 2, 0.1, "6 URLs, 2 stuck, timeout 0.1 s")
    want = [None if u in stuck else f"body of {u}" for u in urls]
    queued = isinstance(got, list) and len(got) == len(urls) and any(
        g is None and u not in stuck for g, u in zip(got, urls))
    assert got == want, say(
        f"6 URLs where 0 and 3 never answer, timeout 0.1 s: got {got}, expected {want}"
        + (" (URLs that answer in 3 ms came back None: does the timeout also count the wait for a slot? "
           "wait_for around `async with sem` does; put it inside, around fetch(url) alone)" if queued else ""),
        f"6 个 URL，其中 0 和 3 永不返回，timeout 0.1 秒：得到 {got}，应为 {want}"
        + ("（3 毫秒就会返回的 URL 也得到了 None：超时是不是把排队等名额的时间也算进去了？"
           "把 wait_for 套在 `async with sem` 外面就会这样；应放在里面，只包住 fetch(url)）" if queued else ""),
    )
    assert _state["cancelled"] == 2, say(
        f"the 2 stuck fetches should be cancelled at the timeout; {_state['cancelled']} were",
        f"2 个卡住的请求应在超时时被取消；实际取消了 {_state['cancelled']} 个",
    )


def test_edges(entry):
    _reset()
    got = _run(entry, [], _fetcher({}), 3, 1.0, "no URLs")
    assert got == [], say(f"no URLs: expected [], got {got}", f"没有 URL：应为 []，实际是 {got}")
    urls = ["a", "b"]
    got = _run(entry, urls, _fetcher({}), 10, 1.0, "2 URLs, limit 10")
    assert got == ["body of a", "body of b"], say(f"2 URLs, limit 10: got {got}", f"2 个 URL，limit 10：得到 {got}")
