"""A reference gang allocator and the tests: all or nothing, rollback, no over-commit, whole pods, a job sequence."""

import random

from quiz.grader.say import say


def best_fit(free, pods, gpus):
    """(placement, free after) for one job under the statement's rule, or (None, free) when it does not fit."""
    left = dict(free)
    placement = []
    for _ in range(pods):
        best = None
        for node, f in left.items():
            if f >= gpus and (best is None or f < left[best]):
                best = node
        if best is None:
            return None, dict(free)
        left[best] -= gpus
        placement.append(best)
    return placement, left


def worst_fit(free, pods, gpus):
    left = dict(free)
    placement = []
    for _ in range(pods):
        fits = [n for n, f in left.items() if f >= gpus]
        if not fits:
            return None
        node = max(fits, key=lambda n: left[n])
        left[node] -= gpus
        placement.append(node)
    return placement


def ties_by_name(free, pods, gpus):
    left = dict(free)
    placement = []
    for _ in range(pods):
        fits = sorted((f, n) for n, f in left.items() if f >= gpus)
        if not fits:
            return None
        node = fits[0][1]
        left[node] -= gpus
        placement.append(node)
    return placement


def first_fit(free, pods, gpus):
    left = dict(free)
    placement = []
    for _ in range(pods):
        node = next((n for n, f in left.items() if f >= gpus), None)
        if node is None:
            return None
        left[node] -= gpus
        placement.append(node)
    return placement


def _free(alloc):
    free = alloc.free
    assert isinstance(free, dict) and all(isinstance(k, str) and type(v) is int for k, v in free.items()), say(
        f"`free` should be a dict of node name -> int, got {free!r}",
        f"`free` 应是 节点名 -> int 的 dict，实际是 {free!r}",
    )
    return dict(free)


def _allocate(alloc, job, pods, gpus):
    got = alloc.allocate(job, pods, gpus)
    if got is None:
        return None
    assert isinstance(got, list) and all(isinstance(n, str) for n in got), say(
        f"allocate({job!r}, {pods}, {gpus}) should return a list of node names or None, got {got!r}",
        f"allocate({job!r}, {pods}, {gpus}) 应返回节点名列表或 None，实际是 {got!r}",
    )
    assert len(got) == pods, say(
        f"allocate({job!r}, {pods}, {gpus}) returned a placement for {len(got)} of {pods} pods: a gang job gets "
        f"all of its pods or none of them; a partial placement holds GPUs while its pods wait for the rest, "
        f"and two such jobs can deadlock each other",
        f"allocate({job!r}, {pods}, {gpus}) 只为 {pods} 个 pod 中的 {len(got)} 个给出了位置：gang 作业要么全部 "
        f"pod 都放下，要么一个都不放；部分放置会占着 GPU 等其余 pod，两个这样的作业会互相死锁",
    )
    return got


def _check_step(before, after, got, pods, gpus, what):
    want, want_after = best_fit(before, pods, gpus)
    if want is None:
        split = sum(before.values()) >= pods * gpus
        note = say(f" ({sum(before.values())} GPUs are free in total, but only {sum(f // gpus for f in before.values())} "
                   f"whole pods fit: a pod's GPUs cannot be split across nodes)",
                   f"（总共空闲 {sum(before.values())} 个 GPU，但只放得下 {sum(f // gpus for f in before.values())} "
                   f"个完整的 pod：一个 pod 的 GPU 不能拆到多个节点上）") if split and got is not None else ""
        assert got is None, say(
            f"{what}: free GPUs {before}; the job cannot be placed, so allocate must return None, got {got}{note}",
            f"{what}：空闲 GPU {before}；该作业放不下，allocate 应返回 None，实际是 {got}{note}",
        )
        assert after == before, say(
            f"{what}: allocate returned None but `free` went from {before} to {after}: the GPUs taken by the pods "
            f"placed before the failure must be given back (roll back), otherwise they leak",
            f"{what}：allocate 返回了 None，但 `free` 从 {before} 变成了 {after}：失败之前已放下的 pod 占用的 GPU "
            f"必须还回去（回滚），否则这些 GPU 就泄漏了",
        )
        return want, want_after
    assert got is not None, say(f"{what}: free GPUs {before}; the job fits ({want}), but allocate returned None",
                                f"{what}：空闲 GPU {before}；作业放得下（{want}），allocate 却返回了 None")
    negative = {n: f for n, f in after.items() if f < 0}
    assert not negative, say(
        f"{what}: free GPUs {before}, placement {got}: `free` became {after}; node(s) {sorted(negative)} are "
        f"over-committed. Each pod must be checked against the free GPUs left after the pods already placed",
        f"{what}：空闲 GPU {before}，放置结果 {got}：`free` 变成了 {after}；节点 {sorted(negative)} 被超额分配了。"
        f"每个 pod 都要对照前面的 pod 放下之后剩下的空闲 GPU 来检查",
    )
    note = ""
    if got == first_fit(before, pods, gpus) != want:
        note = say(" (that is first-fit: the rule is best-fit, the node with the fewest free GPUs that still fit)",
                   "（这是 first-fit：规则是 best-fit，选仍放得下的节点中空闲 GPU 最少的那个）")
    elif got == worst_fit(before, pods, gpus) != want:
        note = say(" (that is worst-fit, the node with the most free GPUs, which spreads jobs out: the rule is "
                   "best-fit, the fewest free GPUs that still fit, which keeps whole nodes for large jobs)",
                   "（这是 worst-fit，选空闲 GPU 最多的节点，会把作业摊开：规则是 best-fit，选仍放得下的节点中空闲最少的，"
                   "把整块的节点留给大作业）")
    elif got == ties_by_name(before, pods, gpus) != want:
        note = say(" (ties were broken by node name: they go to the node that comes first in the dict's order)",
                   "（并列时按节点名选了：应选在字典顺序中靠前的节点）")
    assert got == want, say(f"{what}: free GPUs {before}: expected placement {want}, got {got}{note}",
                            f"{what}：空闲 GPU {before}：放置结果应为 {want}，实际是 {got}{note}")
    assert after == want_after, say(f"{what}: after placing {got}, `free` should be {want_after}, got {after}",
                                    f"{what}：放置 {got} 之后 `free` 应为 {want_after}，实际是 {after}")
    return want, want_after


def _run(alloc, free_now, job, pods, gpus, what):
    """One allocate checked against the reference; returns (expected placement, expected free afterwards)."""
    got = _allocate(alloc, job, pods, gpus)
    return _check_step(free_now, _free(alloc), got, pods, gpus, what)


def test_best_fit_placement(entry):
    cases = [
        ({"a": 8, "b": 4, "c": 6}, 2, 4),
        ({"a": 4, "b": 4, "c": 4}, 2, 2),
        ({"n0": 8, "n1": 2, "n2": 5, "n3": 3}, 3, 2),
        ({"n2": 4, "n0": 6, "n1": 4}, 2, 2),
    ]
    for free, pods, gpus in cases:
        alloc = entry(dict(free))
        _run(alloc, dict(free), "job", pods, gpus, say(f"{pods} pods x {gpus} GPUs", f"{pods} 个 pod x {gpus} GPU"))


def test_no_partial_placement(entry):
    free = {"a": 8, "b": 8, "c": 2}
    alloc = entry(dict(free))
    _, free = _run(alloc, free, "big", 3, 8, say("3 pods x 8 GPUs on {a: 8, b: 8, c: 2}", "3 个 pod x 8 GPU，节点 {a: 8, b: 8, c: 2}"))
    _run(alloc, free, "next", 2, 8, say("the next job, 2 pods x 8 GPUs", "下一个作业，2 个 pod x 8 GPU"))


def test_never_over_commit(entry):
    free = {"a": 6, "b": 8}
    alloc = entry(dict(free))
    _, free = _run(alloc, free, "j1", 2, 4, say("2 pods x 4 GPUs on {a: 6, b: 8}", "2 个 pod x 4 GPU，节点 {a: 6, b: 8}"))
    _run(alloc, free, "j2", 2, 2, say("then 2 pods x 2 GPUs", "接着 2 个 pod x 2 GPU"))


def test_pod_is_never_split(entry):
    for free, pods, gpus in (({"a": 3, "b": 3}, 1, 4), ({"a": 6, "b": 2, "c": 3}, 2, 4)):
        alloc = entry(dict(free))
        _run(alloc, dict(free), "job", pods, gpus,
             say(f"{pods} pod(s) x {gpus} GPUs, {sum(free.values())} GPUs free in total",
                 f"{pods} 个 pod x {gpus} GPU，总共空闲 {sum(free.values())} 个 GPU"))


def test_release_gives_gpus_back(entry):
    free = {"a": 8, "b": 8}
    alloc = entry(dict(free))
    _run(alloc, dict(free), "j1", 3, 4, say("3 pods x 4 GPUs", "3 个 pod x 4 GPU"))
    alloc.release("j1")
    after = _free(alloc)
    assert after == free, say(f"after releasing the only job, `free` should be back to {free}, got {after}",
                              f"释放唯一的作业之后，`free` 应恢复为 {free}，实际是 {after}")
    try:
        alloc.release("j1")
    except KeyError:
        pass
    else:
        raise AssertionError(say("releasing a job that holds no GPUs (already released) should raise KeyError",
                                 "释放一个不持有 GPU 的作业（已经释放过）应抛出 KeyError"))
    _run(alloc, dict(free), "huge", 3, 8, say("3 pods x 8 GPUs on {a: 8, b: 8}", "3 个 pod x 8 GPU，节点 {a: 8, b: 8}"))
    try:
        alloc.release("huge")
    except KeyError:
        pass
    else:
        raise AssertionError(say("releasing a job whose allocate returned None should raise KeyError: it holds no GPUs",
                                 "释放一个 allocate 返回了 None 的作业应抛出 KeyError：它不持有 GPU"))
    after = _free(alloc)
    assert after == free, say(f"releasing a job that was never placed changed `free` from {free} to {after}",
                              f"释放一个从未放下的作业把 `free` 从 {free} 变成了 {after}")


def test_job_sequence(entry, seed):
    rng = random.Random(seed)
    free = {f"node{i}": rng.choice((4, 8, 8)) for i in range(5)}
    alloc = entry(dict(free))
    running = {}  # job -> (placement, GPUs per pod)
    for step in range(40):
        if running and rng.random() < 0.35:
            job = rng.choice(sorted(running))
            alloc.release(job)
            placement, gpus = running.pop(job)
            for node in placement:
                free[node] += gpus
            after = _free(alloc)
            assert after == free, say(f"step {step}: after release({job!r}) `free` should be {free}, got {after}",
                                      f"第 {step} 步：release({job!r}) 之后 `free` 应为 {free}，实际是 {after}")
            continue
        pods, gpus = rng.randint(1, 4), rng.choice((1, 2, 4, 8))
        job = f"j{step}"
        want, free = _run(alloc, free, job, pods, gpus,
                          say(f"step {step}, job {job}: {pods} pods x {gpus} GPUs",
                              f"第 {step} 步，作业 {job}：{pods} 个 pod x {gpus} GPU"))
        if want is not None:
            running[job] = (want, gpus)
