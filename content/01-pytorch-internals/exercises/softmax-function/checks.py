"""What forward kept for backward, judged on what the backward node holds."""

from quiz.grader.say import say


def saves_output_not_input(held, args):
    assert held, say("forward saved nothing with ctx.save_for_backward", "forward 没有用 ctx.save_for_backward 保存任何东西")
    saved = [(h["where"], h["shape"]) for h in held]
    assert any(h["output_of"] is not None for h in held), say(
        f"forward should save its output y (the softmax Jacobian needs only y); it saved something else: {saved}",
        f"forward 应该保存它的输出 y（softmax 的 Jacobian 只需要 y）；它保存的是别的东西：{saved}",
    )
    assert not any(h["alias_of"] == 0 for h in held), say("forward saved the input x too; backward needs only the output",
                                                           "forward 把输入 x 也保存了；backward 只需要输出")
