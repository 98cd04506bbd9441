"""A 2-stage pipeline on real ranks: both ranks build the same model from the seed and keep one half; the
judge runs the unsplit model on the whole batch and compares each stage's gradients and the loss."""

import torch

from quiz.grader.say import say

_Generator, _randn, _mse = torch.Generator, torch.randn, torch.nn.functional.mse_loss
BATCH, IN, HIDDEN, OUT, MICRO = 8, 6, 12, 3, 4


def model(seed):
    gen = _Generator()
    gen.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, OUT)).double()
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(_randn(p.shape, generator=gen, dtype=torch.float64) * 0.5)
    return net


def data(seed):
    gen = _Generator()
    gen.manual_seed(seed + 1)
    return _randn(BATCH, IN, generator=gen, dtype=torch.float64), _randn(BATCH, OUT, generator=gen, dtype=torch.float64)


def stage_of(net, rank):
    return net[:2] if rank == 0 else net[2:]


def run_pipeline(entry, rank, world, seed):
    stage = stage_of(model(seed), rank)
    x, y = data(seed)
    loss = entry(stage, x if rank == 0 else y, MICRO, HIDDEN)
    return {"grads": [p.grad for p in stage.parameters()], "loss": _number(loss)}


def _number(loss):
    """The loss as a float (a 0-d or one-element tensor, or a Python number), or None."""
    if isinstance(loss, torch.Tensor) and loss.numel() == 1:
        return float(loss.detach())
    if isinstance(loss, (int, float)) and not isinstance(loss, bool):
        return float(loss)
    return None


def _grads(seed, pieces):
    """Each stage's gradients from the micro-batches in `pieces` (index lists), mean loss over the batch."""
    net = model(seed)
    x, y = data(seed)
    chunks_x, chunks_y = x.chunk(MICRO), y.chunk(MICRO)
    total = 0.0
    for i in pieces:
        loss = _mse(net(chunks_x[i]), chunks_y[i]) / MICRO
        loss.backward()
        total += float(loss)
    return [[p.grad for p in stage_of(net, r).parameters()] for r in (0, 1)], total


def _close(a, b):
    return isinstance(a, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b, rtol=1e-9, atol=1e-12)


def _same(got, want):
    return isinstance(got, list) and len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))


def judge_pipeline(reports, world, seed):
    want, loss = _grads(seed, range(MICRO))
    last, _ = _grads(seed, [MICRO - 1])
    names = {0: ["Linear 1 weight", "Linear 1 bias"], 1: ["Linear 2 weight", "Linear 2 bias"]}
    for r in sorted(reports, key=lambda r: -r.rank):  # the last stage first: its mistakes flow back to rank 0
        got = r.result["grads"]
        if _same(got, want[r.rank]):
            continue
        if isinstance(got, list) and any(g is None for g in got):
            why = say("no gradient reached them: "
                      + ("call out.backward(grad) on each saved output with the gradient rank 1 sends back"
                         if r.rank == 0 else "call loss.backward() for each micro-batch"),
                      "没有梯度到达它们："
                      + ("对每个保存的输出用 rank 1 发回的梯度调用 out.backward(grad)" if r.rank == 0
                         else "对每个 micro-batch 调用 loss.backward()"))
        elif _same(got, [w * MICRO for w in want[r.rank]]):
            why = say(f"{MICRO} times too large: divide each micro-batch's loss by the number of micro-batches "
                      f"({MICRO}), so that together they make the mean over the whole batch",
                      f"大了 {MICRO} 倍：每个 micro-batch 的 loss 要除以 micro-batch 数（{MICRO}），合起来才是整个 batch 的平均")
        elif _same(got, last[r.rank]):
            why = say("they hold only the last micro-batch: gradients must accumulate over the micro-batches (no "
                      "zero_grad between them)", "只包含最后一个 micro-batch：梯度要在各 micro-batch 之间累加（中间不能 zero_grad）")
        elif r.rank == 0:
            why = say("rank 1's are right, so look at how rank 0 pairs each saved activation with the gradient it "
                      "receives: rank 1 sends the gradients in forward order",
                      "rank 1 的梯度是对的，所以问题在 rank 0 如何把保存的激活与收到的梯度配对：rank 1 按前向顺序发回梯度")
        else:
            why = say("they differ from the unsplit model's", "与不切分模型的梯度不同")
        bad = [n for n, g, w in zip(names[r.rank], got, want[r.rank]) if not _close(g, w)]
        raise AssertionError(say(f"rank {r.rank}, gradients of {', '.join(bad)}: ",
                                 f"rank {r.rank}，{', '.join(bad)} 的梯度：") + why)
    got_loss = reports[1].result["loss"]
    assert got_loss is not None, say(
        f"rank 1 returned no loss (a number or a one-element tensor); the whole batch's mean squared error is "
        f"{loss:.6g}", f"rank 1 没有返回 loss（一个数或只有一个元素的 tensor）；整个 batch 的均方误差是 {loss:.6g}")
    if abs(float(got_loss) - loss) >= 1e-9:
        why = ""
        if abs(float(got_loss) - loss / MICRO) < 1e-9:
            why = say(f": it is 1/{MICRO} of it; the scaled micro-batch losses already add up to the mean, do not "
                      "divide their sum again", f"：它只有 1/{MICRO}；缩放后的各 micro-batch loss 相加就已经是平均，不要再除一次")
        elif abs(float(got_loss) - loss * MICRO) < 1e-9:
            why = say(f": it is {MICRO} times as large; add the losses divided by {MICRO}",
                      f"：它大了 {MICRO} 倍；要把除以 {MICRO} 之后的 loss 相加")
        raise AssertionError(say(
            f"rank 1 returned the loss {float(got_loss):.6g}; the whole batch's mean squared error is {loss:.6g} (the "
            "sum of the scaled micro-batch losses)",
            f"rank 1 返回的 loss 是 {float(got_loss):.6g}；整个 batch 的均方误差是 {loss:.6g}（各 micro-batch 缩放后 loss 之和）")
            + why)
