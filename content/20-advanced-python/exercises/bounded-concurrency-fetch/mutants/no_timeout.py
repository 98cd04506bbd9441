import asyncio


async def fetch_all(urls, fetch, limit, timeout):
    gate = asyncio.Semaphore(limit)

    async def one(url):
        async with gate:
            try:
                return await fetch(url)
            except Exception:  # a failure or a timeout: None in this slot, the batch goes on
                return None

    return list(await asyncio.gather(*(one(u) for u in urls)))
