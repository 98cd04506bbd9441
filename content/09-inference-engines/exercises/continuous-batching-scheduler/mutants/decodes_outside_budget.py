def schedule(requests, token_budget, max_num_seqs):
    """Iteration-level scheduling: one dict {request id: tokens computed} per engine step until all finish."""
    pending = sorted(range(len(requests)), key=lambda i: (requests[i]["arrival"], i))
    state = {r["id"]: {"computed": 0, "outputs": 0} for r in requests}
    waiting, running, steps = [], [], []
    step, done = 0, 0
    while done < len(requests):
        while pending and requests[pending[0]]["arrival"] <= step:
            waiting.append(requests[pending.pop(0)])
        budget, batch = token_budget, {}
        for r in running:  # requests already running go first: their decodes keep streaming
            s = state[r["id"]]
            if s["computed"] >= r["prompt_len"]:
                batch[r["id"]] = 1  # a decode is one token, nothing against the budget
                continue
            if budget == 0:
                break
            batch[r["id"]] = min(r["prompt_len"] - s["computed"], budget)
            budget -= batch[r["id"]]
        while waiting and budget > 0 and len(running) < max_num_seqs:
            r = waiting.pop(0)
            batch[r["id"]] = min(r["prompt_len"], budget)  # a long prompt is chunked to what is left
            budget -= batch[r["id"]]
            running.append(r)
        for r in list(running):
            if r["id"] not in batch:
                continue
            s = state[r["id"]]
            s["computed"] += batch[r["id"]]
            if s["computed"] >= r["prompt_len"]:  # the prompt is done: this step samples a token
                s["outputs"] += 1
            if s["outputs"] == r["output_len"]:
                running.remove(r)
                done += 1
        steps.append(batch)
        step += 1
    return steps
