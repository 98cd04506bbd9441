import asyncio


async def fetch_all(urls, fetch, limit, timeout):
    out = []
    for url in urls:  # one at a time: never more than one in flight
        try:
            out.append(await asyncio.wait_for(fetch(url), timeout))
        except Exception:
            out.append(None)
    return out
