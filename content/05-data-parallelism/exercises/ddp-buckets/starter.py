ELEMENT_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}


def assign_buckets(params, bucket_cap_bytes=25 * 2**20, first_bucket_bytes=2**20):
    """DDP's bucket assignment: gradient-ready (reverse registration) order, one bucket stream per dtype.

    params: [(name, numel, dtype)] in model.parameters() order.
    Returns the buckets as lists of names, in the order their all-reduces would be launched.
    """
    # TODO: walk params in reverse; per dtype keep an open bucket and its current limit
    #       (first_bucket_bytes for that dtype's first bucket, bucket_cap_bytes afterwards);
    #       add the parameter, then close the bucket once its bytes reach the limit;
    #       finally append the still-open buckets in the order they were opened
    raise NotImplementedError("assign_buckets")
