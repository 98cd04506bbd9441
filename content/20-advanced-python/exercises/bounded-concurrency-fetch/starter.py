import asyncio  # noqa: F401


async def fetch_all(urls, fetch, limit, timeout):
    """await fetch(url) for every url with at most `limit` in flight; results in input order, None for a failure
    or a call that took longer than `timeout` seconds."""
    # TODO: a Semaphore for the slots, wait_for for the timeout, gather for the order
    raise NotImplementedError("fetch_all")
