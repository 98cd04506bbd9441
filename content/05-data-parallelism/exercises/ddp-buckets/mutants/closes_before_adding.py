ELEMENT_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}


def assign_buckets(params, bucket_cap_bytes=25 * 2**20, first_bucket_bytes=2**20):
    # keeps every bucket under the cap by closing it *before* a parameter would overflow it
    result = []
    open_buckets, limits = {}, {}
    for step, (name, numel, dtype) in enumerate(reversed(params)):
        nbytes = numel * ELEMENT_BYTES[dtype]
        limit = limits.setdefault(dtype, first_bucket_bytes)
        bucket = open_buckets.get(dtype)
        if bucket and bucket["bytes"] + nbytes > limit:
            result.append(bucket["names"])
            bucket = None
            limits[dtype] = bucket_cap_bytes
        if bucket is None:
            bucket = open_buckets[dtype] = {"names": [], "bytes": 0, "opened": step}
        bucket["names"].append(name)
        bucket["bytes"] += nbytes
    for bucket in sorted(open_buckets.values(), key=lambda b: b["opened"]):
        result.append(bucket["names"])
    return result
