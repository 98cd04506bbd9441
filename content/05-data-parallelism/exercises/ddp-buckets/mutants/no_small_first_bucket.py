ELEMENT_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}


def assign_buckets(params, bucket_cap_bytes=25 * 2**20, first_bucket_bytes=2**20):
    """DDP's bucket assignment: gradient-ready (reverse registration) order, one bucket stream per dtype.

    params: [(name, numel, dtype)] in model.parameters() order.
    Returns the buckets as lists of names, in the order their all-reduces would be launched.
    """
    result = []
    open_buckets = {}  # dtype -> {"names": [...], "bytes": int, "opened": step}
    limits = {}        # dtype -> current size limit
    for step, (name, numel, dtype) in enumerate(reversed(params)):
        bucket = open_buckets.setdefault(dtype, {"names": [], "bytes": 0, "opened": step})
        limit = limits.setdefault(dtype, bucket_cap_bytes)
        bucket["names"].append(name)
        bucket["bytes"] += numel * ELEMENT_BYTES[dtype]
        if bucket["bytes"] >= limit:
            result.append(bucket["names"])
            del open_buckets[dtype]
            limits[dtype] = bucket_cap_bytes
    for bucket in sorted(open_buckets.values(), key=lambda b: b["opened"]):
        result.append(bucket["names"])
    return result
