"""The command palette: literal hits (number, id, title) rank above fuzzy noise, one line per entry."""

from __future__ import annotations

import pytest

from quiz.content import load_default_bank
from quiz.tui.app import QuizApp
from quiz.tui.palette_rank import entries, rank
from tui.harness import make_context


@pytest.fixture(scope="module")
def bank():
    return load_default_bank([])


def fuzzy_noise(_title: str) -> float:
    return 500.0  # every title also matches fuzzily, strongly: literal hits must still win


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("23", "fused-operator"),  # question 23 by number
        ("#23", "fused-operator"),
        ("silu", "silu-function"),  # the SiLU exercise by id/title
        ("FSDP", "ddp-vs-fsdp"),  # "DDP vs FSDP", the first title that names FSDP
        ("fsdp", "ddp-vs-fsdp"),
        ("pipeline", "pipeline-bubble"),  # the first title containing "pipeline"
        ("流水线", "pipeline-bubble"),  # a Chinese title substring
        ("ｐｉｐｅｌｉｎｅ", "pipeline-bubble"),  # full-width input
        ("zero-stages", "zero-stages"),  # an exact id
    ],
)
def test_literal_hits_come_first(bank, query, first):
    ranked = rank(entries(bank), query, fuzzy=fuzzy_noise)
    assert ranked[0].target == first


def test_title_hits_rank_above_answer_text_and_keep_syllabus_order(bank):
    ranked = rank(entries(bank), "FSDP")
    in_title = [e for e in ranked if any("fsdp" in t.lower() for t in e.titles) or "fsdp" in e.target]
    assert ranked[: len(in_title)] == in_title
    numbers = [e.number for e in in_title if e.number]
    assert numbers == sorted(numbers)


async def test_palette_shows_question_23_first_on_one_line(tmp_path):
    ctx = make_context(tmp_path)
    ctx.bank = load_default_bank([])
    app = QuizApp(ctx)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+p")
            await pilot.press("2", "3")
            await pilot.pause(0.6)
            from textual.command import CommandList

            commands = app.screen.query_one(CommandList)
            assert commands.option_count > 4
            assert str(commands.get_option_at_index(0).prompt).startswith("#23 ")
            assert commands.virtual_size.height == commands.option_count  # one line each
            await pilot.press("enter")
            await pilot.pause()
            assert type(app.screen).__name__ == "QuestionScreen"
            assert app.screen.question_id == "fused-operator"
    finally:
        ctx.services.close()
