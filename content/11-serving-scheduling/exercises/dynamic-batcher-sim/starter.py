def dynamic_batches(requests, max_batch_size, preferred_batch_size=(), max_queue_delay_us=0):
    """The batches Triton's dynamic batcher forms from a timestamped trace: [(dispatch time in us, [request ids])].

    requests: [(arrival_us, batch_size), ...] in arrival order; a request's id is its index.
    """
    # TODO: at each arrival time and each deadline (oldest arrival + delay): queue the arrived requests, then
    #       decide, again and again while the queue is not empty, whether to send a batch now or wait.
    raise NotImplementedError("dynamic_batches")
