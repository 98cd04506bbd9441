def schedule(requests, token_budget, max_num_seqs):
    """Iteration-level scheduling: one dict {request id: tokens computed} per engine step until all finish.

    requests: [{"id": str, "arrival": int, "prompt_len": int, "output_len": int}, ...]
    """
    # TODO: each step: move arrived requests to the waiting queue (FCFS); give running requests their tokens
    #       first (the rest of the prompt, or 1 for a decode), then admit waiting requests while budget and
    #       seats remain (chunking a prompt to the budget left); a step whose prompt finishes samples a token;
    #       retire requests that reached output_len.
    raise NotImplementedError("schedule")
