"""`quiz cards`: search by text, module, state and tag; suspend/unsuspend, bury, forget; a card's history."""

from __future__ import annotations

from test_cli_review import quiz


def listed(result) -> list[str]:
    return [line.split()[0] for line in result.stdout.splitlines() if line.strip()]


def test_search_suspend_unsuspend_and_show(isolated_home):
    assert listed(quiz("cards", "module:beta", "Front", home=isolated_home)) == ["q/q4/c", "q/q5/c", "q/q6/c"]
    out = quiz("cards", "--suspend", "q/q5/c", "--bury", "q/q1", home=isolated_home)
    assert out.returncode == 0 and "suspend: q/q5/c" in out.stdout
    assert listed(quiz("cards", "state:suspended", home=isolated_home)) == ["q/q5/c"]
    assert listed(quiz("cards", "state:buried", home=isolated_home)) == ["q/q1"]
    quiz("cards", "--unsuspend", "q/q5/c", home=isolated_home)
    assert listed(quiz("cards", "state:suspended", home=isolated_home)) == []
    quiz("review", "--plain", "--module", "beta", stdin="\n4\nq\n", home=isolated_home)
    shown = quiz("cards", "--show", "q/q4", home=isolated_home).stdout
    assert "review · reps 1" in shown and "easy" in shown and "next due 20" in shown
    assert listed(quiz("cards", "state:review", home=isolated_home)) == ["q/q4"]
    quiz("cards", "--forget", "q/q4", home=isolated_home)
    assert listed(quiz("cards", "state:review", home=isolated_home)) == []
    assert "easy" in quiz("cards", "--show", "q/q4", home=isolated_home).stdout  # history kept


def test_unknown_card_is_a_usage_error(isolated_home):
    out = quiz("cards", "--suspend", "q/nope", home=isolated_home)
    assert out.returncode == 2 and "no such card: q/nope" in out.stderr
