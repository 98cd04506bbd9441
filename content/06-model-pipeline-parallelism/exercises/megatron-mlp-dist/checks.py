"""Megatron's column- then row-parallel MLP on real ranks: every rank builds the same full weights from the
seed and takes its shards; the judge runs the unsharded MLP and compares outputs and every gradient."""

import torch

from quiz.grader.say import say

_Generator, _randn, _gelu = torch.Generator, torch.randn, torch.nn.functional.gelu
D, HIDDEN, BATCH = 6, 8, 3


def full(seed):
    gen = _Generator()
    gen.manual_seed(seed)
    r = lambda *shape: _randn(*shape, generator=gen, dtype=torch.float64)  # noqa: E731
    return {"x": r(BATCH, D), "w1": r(D, HIDDEN), "b1": r(HIDDEN), "w2": r(HIDDEN, D) * 0.5, "b2": r(D), "gy": r(BATCH, D)}


def shards(t, rank, world):
    cols = slice(rank * HIDDEN // world, (rank + 1) * HIDDEN // world)
    return {"x": t["x"], "w1": t["w1"][:, cols], "b1": t["b1"][cols], "w2": t["w2"][cols, :], "b2": t["b2"]}


def run_mlp(entry, rank, world, seed):
    mine = {k: v.clone().requires_grad_() for k, v in shards(full(seed), rank, world).items()}
    y = entry(mine["x"], mine["w1"], mine["b1"], mine["w2"], mine["b2"])
    y.backward(full(seed)["gy"])
    return {"y": y.detach(), "grads": {k: v.grad for k, v in mine.items()}}


def _mlp(p):
    return _gelu(p["x"] @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def _reference(params, gy):
    leaves = {k: v.clone().requires_grad_() for k, v in params.items()}
    y = _mlp(leaves)
    y.backward(gy)
    return y.detach(), {k: v.grad for k, v in leaves.items()}


def _close(a, b):
    return isinstance(a, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b, rtol=1e-9, atol=1e-10)


def judge_mlp(reports, world, seed):
    t = full(seed)
    params = {k: t[k] for k in ("x", "w1", "b1", "w2", "b2")}
    y_want, g_full = _reference(params, t["gy"])
    for r in reports:
        y, grads = r.result["y"], r.result["grads"]
        if not _close(y, y_want):
            mine = shards(t, r.rank, world)
            partial = _gelu(mine["x"] @ mine["w1"] + mine["b1"]) @ mine["w2"]
            if _close(y, y_want + (world - 1) * t["b2"]):
                why = say(f"b2 is counted {world} times: add the bias after the all-reduce, not on every rank before it",
                          f"b2 被加了 {world} 次：bias 要在 all-reduce 之后加，而不是每个 rank 在之前各加一次")
            elif _close(y, _gelu(t["x"] @ t["w1"] + t["b1"], approximate="tanh") @ t["w2"] + t["b2"]):
                why = say("this is the tanh approximation of GELU: use F.gelu's default, approximate='none'",
                          "这是 GELU 的 tanh 近似：要用 F.gelu 的默认值 approximate='none'")
            elif _close(y, partial + t["b2"]):
                why = say("y is this rank's partial sum: the row-parallel output needs an all-reduce in forward (g)",
                          "y 只是本 rank 的部分和：行并行的输出在前向要做一次 all-reduce（g）")
            else:
                why = say("it differs from the unsharded MLP", "与不切分的 MLP 不一致")
            raise AssertionError(say(f"rank {r.rank}, output y: ", f"rank {r.rank}，输出 y：") + why)
        want = shards(g_full, r.rank, world)
        for name in ("w1", "b1", "w2", "b2", "x"):
            got = grads.get(name)
            if _close(got, want[name]):
                continue
            if got is not None and _close(got, want[name] * world):
                why = say(f"{world} times too large: g's backward is the identity; an all-reduce there sums the same "
                          "gradient once per rank", f"大了 {world} 倍：g 的反向是恒等；在那里 all-reduce 会把同一个梯度按 rank 数重复相加")
            elif got is not None and _close(got, want[name] / world):
                why = say(f"1/{world} of the right gradient: the all-reduce in f's backward sums the parts (op SUM); "
                          "dividing by the world size averages them",
                          f"只有正确梯度的 1/{world}：f 的反向里 all-reduce 要把各部分相加（op 为 SUM），除以 world size "
                          "就成了平均")
            elif name == "x" and got is not None:
                mine = {k: v.clone().requires_grad_() for k, v in shards(t, r.rank, world).items()}
                (_gelu(mine["x"] @ mine["w1"] + mine["b1"]) @ mine["w2"]).backward(t["gy"])
                why = (say("it holds only this rank's part: f's backward must all-reduce the input's gradient",
                           "它只包含本 rank 的那一部分：f 的反向必须对输入的梯度做 all-reduce")
                       if _close(got, mine["x"].grad) else say("it differs from the unsharded MLP's", "与不切分的 MLP 不一致"))
            else:
                why = say("it differs from the matching slice of the unsharded MLP's gradient",
                          "与不切分 MLP 梯度的对应切片不一致")
            raise AssertionError(say(f"rank {r.rank}, gradient of {name}: ", f"rank {r.rank}，{name} 的梯度：") + why)
    for r in reports:
        used = {op: n for op, n in r.calls.items() if n}
        if used == {"all_reduce": 2}:
            continue
        extra = used.get("all_reduce", 0) > 2 and set(used) == {"all_reduce"}
        raise AssertionError(say(
            f"rank {r.rank} made these collective calls: {used}; the right values need exactly two all_reduce calls, "
            "one in g's forward and one in f's backward"
            + (": an all-reduce in g's backward (or of b2's gradient) reduces a gradient that is already the "
               "same on every rank, and only costs bandwidth" if extra else ""),
            f"rank {r.rank} 的通信调用是 {used}；得到正确结果只需要两次 all_reduce：g 的前向一次、f 的反向一次"
            + ("：在 g 的反向（或对 b2 的梯度）再做 all-reduce，归约的是每个 rank 上本来就相同的梯度，只是浪费带宽"
               if extra else ""),
        ))
