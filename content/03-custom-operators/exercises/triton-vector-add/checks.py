"""The torch reference for the vector-add kernel."""

from quiz.grader.say import say


def reference(x, y):
    return x + y


def hint_output(check, args, got):
    return say("Elements that were never written hold whatever torch.empty left there: the grid must cover every "
               "element, grid = (triton.cdiv(n, BLOCK),) rounds up, and each program's offsets start at "
               "program_id(0) * BLOCK.",
               "从未被写入的元素里是 torch.empty 留下的随机值：grid 必须覆盖每一个元素，"
               "grid = (triton.cdiv(n, BLOCK),) 会向上取整，并且每个 program 的 offset 从 "
               "program_id(0) * BLOCK 开始。")
