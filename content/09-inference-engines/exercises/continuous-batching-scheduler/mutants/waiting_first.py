def schedule(requests, token_budget, max_num_seqs):
    """Admits waiting requests before serving the running ones."""
    pending = sorted(range(len(requests)), key=lambda i: (requests[i]["arrival"], i))
    state = {r["id"]: {"computed": 0, "outputs": 0} for r in requests}
    waiting, running, steps = [], [], []
    step, done = 0, 0
    while done < len(requests):
        while pending and requests[pending[0]]["arrival"] <= step:
            waiting.append(requests[pending.pop(0)])
        budget, batch = token_budget, {}
        admitted = []
        while waiting and budget > 0 and len(running) + len(admitted) < max_num_seqs:
            r = waiting.pop(0)
            batch[r["id"]] = min(r["prompt_len"], budget)
            budget -= batch[r["id"]]
            admitted.append(r)
        for r in running:
            if budget == 0:
                break
            s = state[r["id"]]
            need = r["prompt_len"] - s["computed"] if s["computed"] < r["prompt_len"] else 1
            batch[r["id"]] = min(need, budget)
            budget -= batch[r["id"]]
        running += admitted
        for r in list(running):
            if r["id"] not in batch:
                continue
            s = state[r["id"]]
            s["computed"] += batch[r["id"]]
            if s["computed"] >= r["prompt_len"]:
                s["outputs"] += 1
            if s["outputs"] == r["output_len"]:
                running.remove(r)
                done += 1
        steps.append(batch)
        step += 1
    return steps
