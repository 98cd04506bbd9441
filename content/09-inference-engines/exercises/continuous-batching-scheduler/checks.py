"""A reference iteration-level scheduler (with switches that reproduce the usual mistakes), hand traces and random ones."""

import torch

from quiz.grader.say import say

_Generator = torch.Generator
_randint = torch.randint


def simulate(requests, budget, max_seqs, mistake=None):
    order = sorted(range(len(requests)), key=lambda i: (requests[i]["arrival"], i))
    computed = {r["id"]: 0 for r in requests}
    outputs = {r["id"]: 0 for r in requests}
    waiting, running, steps, step, done = [], [], [], 0, 0
    while done < len(requests) and step < 500:
        while order and requests[order[0]]["arrival"] <= step:
            waiting.append(requests[order.pop(0)])
        left, batch = budget, {}

        def run_running():
            nonlocal left
            for r in running:
                if left == 0:
                    break
                need = r["prompt_len"] - computed[r["id"]] if computed[r["id"]] < r["prompt_len"] else 1
                batch[r["id"]] = min(need, left)
                left -= batch[r["id"]]

        def admit():
            nonlocal left
            if mistake == "static" and running:
                return
            while waiting and left > 0 and len(running) < max_seqs:
                r = waiting[0]
                if mistake == "no_chunking" and left < r["prompt_len"] <= budget:
                    break
                waiting.pop(0)
                batch[r["id"]] = min(r["prompt_len"], left)
                left -= batch[r["id"]]
                running.append(r)

        if mistake == "waiting_first":
            admit()
            run_running()
        else:
            run_running()
            admit()
        for r in list(running):
            if r["id"] not in batch:
                continue
            was = computed[r["id"]]
            computed[r["id"]] += batch[r["id"]]
            if computed[r["id"]] >= r["prompt_len"] and not (mistake == "late_first_token" and was < r["prompt_len"]):
                outputs[r["id"]] += 1
            if outputs[r["id"]] == r["output_len"]:
                running.remove(r)
                done += 1
        steps.append(batch)
        step += 1
    return steps


MISTAKES = {
    "static": ("static batching: no request joined while others were still running. Continuous batching admits "
               "new requests at every step, as soon as budget and seats allow",
               "静态批处理：有请求在跑时没有新请求加入。连续批处理在每一步都会接纳新请求，只要预算和名额允许"),
    "waiting_first": ("waiting requests scheduled before running ones; running requests go first, so the decodes "
                      "of requests already streaming are never starved by new prefills",
                      "先调度了等待中的请求；应先调度正在运行的请求，这样已在流式输出的请求的 decode 不会被新的 prefill 饿死"),
    "no_chunking": ("a prompt that did not fit in the budget left waited whole; with chunked prefill it takes the "
                    "tokens that are left in this step and continues in the next",
                    "剩余预算放不下的 prompt 整个在等待；开启 chunked prefill 时它应先用掉本步剩余的 token，下一步继续"),
    "late_first_token": ("the step that finishes a prompt produced no token; that step samples the first output "
                         "token, so a request needs only output_len - 1 decode steps after its prefill",
                         "完成 prompt 的那一步没有产出 token；这一步会采样出第一个输出 token，所以 prefill 之后只需要 "
                         "output_len - 1 步 decode"),
}


def _call(entry, requests, budget, max_seqs):
    got = entry([dict(r) for r in requests], budget, max_seqs)
    assert isinstance(got, (list, tuple)), say(f"schedule should return a list of dicts, got {type(got).__name__}",
                                               f"schedule 应返回 dict 列表，实际是 {type(got).__name__}")
    for i, step in enumerate(got):
        assert isinstance(step, dict), say(f"step {i} should be a dict {{request id: tokens}}, got {type(step).__name__}",
                                           f"第 {i} 步应是 dict {{请求 id: token 数}}，实际是 {type(step).__name__}")
    return [dict(s) for s in got]


def _describe(requests, budget, max_seqs):
    reqs = ", ".join(f"{r['id']}(arrival {r['arrival']}, prompt {r['prompt_len']}, output {r['output_len']})"
                     for r in requests)
    return reqs, budget, max_seqs


def _compare(entry, requests, budget, max_seqs):
    got = _call(entry, requests, budget, max_seqs)
    want = simulate(requests, budget, max_seqs)
    for i, step in enumerate(got):
        total = sum(v for v in step.values() if isinstance(v, int))
        assert total <= budget, say(
            f"step {i} schedules {total} tokens, over the token budget of {budget}: {step}. Every token of a step "
            "counts, a decode's one token included: the budget bounds the work of one forward pass",
            f"第 {i} 步调度了 {total} 个 token，超出了 token 预算 {budget}：{step}。一步里的每个 token 都要计入，"
            "decode 的那 1 个 token 也不例外：预算限制的是一次前向的计算量")
        assert len(step) <= max_seqs, say(f"step {i} runs {len(step)} requests, more than max_num_seqs = {max_seqs}: {step}",
                                          f"第 {i} 步运行了 {len(step)} 个请求，超过了 max_num_seqs = {max_seqs}：{step}")
    if got == want:
        return
    k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), min(len(got), len(want)))
    hint = ""
    for name, (en, zh) in MISTAKES.items():
        if got == simulate(requests, budget, max_seqs, name):
            hint = say(f" This looks like {en}.", f"看起来是这个错误：{zh}。")
            break
    reqs, _, _ = _describe(requests, budget, max_seqs)
    at = (say(f"step {k}: expected {want[k]}, got {got[k]}", f"第 {k} 步：应为 {want[k]}，实际是 {got[k]}")
          if k < len(got) and k < len(want) else
          say(f"expected {len(want)} steps, got {len(got)}", f"应有 {len(want)} 步，实际有 {len(got)} 步"))
    raise AssertionError(say(
        f"token budget {budget}, max_num_seqs {max_seqs}, requests {reqs}: {at}.{hint} "
        f"Expected steps from {max(0, k - 1)}: {want[max(0, k - 1):k + 3]}",
        f"token 预算 {budget}，max_num_seqs {max_seqs}，请求 {reqs}：{at}。{hint}"
        f"从第 {max(0, k - 1)} 步起应为：{want[max(0, k - 1):k + 3]}"))


def _req(rid, arrival, prompt, output):
    return {"id": rid, "arrival": arrival, "prompt_len": prompt, "output_len": output}


def test_one_request_prefills_then_decodes(entry):
    _compare(entry, [_req("a", 0, 5, 3)], 8, 4)
    _compare(entry, [_req("a", 0, 5, 1)], 8, 4)


def test_a_new_request_joins_the_running_batch(entry):
    _compare(entry, [_req("a", 0, 4, 6), _req("b", 2, 3, 2)], 16, 4)


def test_steps_before_the_first_arrival_are_empty(entry):
    _compare(entry, [_req("a", 3, 2, 2)], 8, 4)
    _compare(entry, [_req("late", 2, 3, 2), _req("early", 0, 2, 3)], 8, 1)  # the queue is ordered by arrival


def test_long_prompt_is_chunked(entry):
    _compare(entry, [_req("a", 0, 20, 2), _req("b", 0, 3, 3)], 8, 4)


def test_a_prompt_takes_the_budget_left(entry):
    _compare(entry, [_req("a1", 0, 2, 3), _req("a2", 0, 2, 8), _req("b", 1, 8, 2)], 9, 4)


def test_running_requests_are_served_first(entry):
    _compare(entry, [_req("a", 0, 2, 5), _req("b", 0, 2, 5), _req("c", 1, 6, 2)], 5, 4)


def test_max_num_seqs_limits_the_batch(entry):
    _compare(entry, [_req(x, 0, 2, n) for x, n in zip("abcde", (3, 1, 4, 2, 2))], 32, 2)


def _random_trace(seed, count):
    gen = _Generator().manual_seed(seed)
    pick = lambda lo, hi: int(_randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    arrival = 0
    out = []
    for i in range(count):
        arrival += pick(0, 2)
        out.append(_req(f"r{i}", arrival, pick(1, 14), pick(1, 6)))
    return out


def test_random_traces(entry):
    for seed, budget, seats in ((1, 12, 3), (2, 6, 4), (3, 20, 2)):
        _compare(entry, _random_trace(seed, 9), budget, seats)
