"""The torch reference for the two-stage sum, and what a wrong answer usually means."""

from quiz.grader.say import say


def reference(x):
    return x.double().sum().to(x.dtype)


def hint_output(check, args, got):
    x = args[0]
    n = x.numel()
    out = float(got[0]) if got and got[0].numel() == 1 else None
    if out is None:
        return say("Return a 0-d tensor holding the total.", "请返回一个存放总和的 0 维 tensor。")
    pad = -n % 1024
    if pad and abs(out - (float(x.double().sum()) + pad)) < 1e-2 * max(1.0, abs(out)):
        return say(f"Off by exactly {pad}, the number of padding lanes in the last block: load them with "
                   "other=0.0 so they add nothing.",
                   f"结果恰好差了 {pad}，正是最后一个 block 中 padding lane 的个数：load 时用 "
                   "other=0.0，让它们不贡献任何值。")
    first = float(x[: 64 * 1024].double().sum())
    if n > 64 * 1024 and abs(out - first) < 1e-2 * max(1.0, abs(first)):
        return say("Only the first BLOCK partial sums were added: there are cdiv(n, BLOCK) of them, so the second "
                   "stage loops over them BLOCK at a time.",
                   "只加了前 BLOCK 个部分和：部分和一共有 cdiv(n, BLOCK) 个，所以第二阶段要每次 BLOCK 个地"
                   "循环遍历它们。")
    return say("Each stage-1 program writes its own slot, partial_ptr + program_id(0); stage 2 adds every slot "
               "(mask the last step with offs < n_partials).",
               "第一阶段的每个 program 写入自己的槽位 partial_ptr + program_id(0)；第二阶段把所有槽位相加"
               "（最后一步用 offs < n_partials 做 mask）。")
