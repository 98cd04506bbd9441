# Wrong: wait_for wraps the semaphore wait as well as the fetch, so time spent queued for a slot counts
# against the timeout and fast URLs behind stuck ones come back None.
import asyncio


async def fetch_all(urls, fetch, limit, timeout):
    sem = asyncio.Semaphore(limit)

    async def one(url):
        async with sem:
            return await fetch(url)

    async def guarded(url):
        try:
            return await asyncio.wait_for(one(url), timeout)
        except Exception:
            return None

    return list(await asyncio.gather(*(guarded(u) for u in urls)))
