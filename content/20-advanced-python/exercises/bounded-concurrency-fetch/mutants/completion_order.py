import asyncio


async def fetch_all(urls, fetch, limit, timeout):
    gate = asyncio.Semaphore(limit)
    done = []

    async def one(url):
        async with gate:
            try:
                done.append(await asyncio.wait_for(fetch(url), timeout))
            except Exception:
                done.append(None)

    await asyncio.gather(*(one(u) for u in urls))
    return done
