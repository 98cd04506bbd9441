"""What forward kept for backward, judged on what the backward node holds."""


def saves_output_not_input(held, args):
    assert held, "forward saved nothing with ctx.save_for_backward"
    assert any(h["output_of"] is not None for h in held), (
        "forward should save its output y (the softmax Jacobian needs only y); it saved something else: "
        f"{[(h['where'], h['shape']) for h in held]}"
    )
    assert not any(h["alias_of"] == 0 for h in held), "forward saved the input x too; backward needs only the output"
