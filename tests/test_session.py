"""Quiz and review sessions over the small test pack: items, weakest topics, keyword coverage, choice grading,
summaries, card ids and what each card shows."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from quiz.content.loader import load_bank
from quiz.content.models import KeywordGroup
from quiz.session.cards import CardView, card_view, content_cards, flashcard_id, parse_card_id, question_card_id
from quiz.session.quiz import (
    QuizItem,
    QuizOutcome,
    QuizSummary,
    build_items,
    choice_correct,
    keyword_coverage,
    weakest_questions,
)
from quiz.session.review import ReviewSession
from quiz.srs.cardstate import LEARNING, REVIEW, CardState
from quiz.srs.queue import Limits
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store
from srs_helpers import PACK, T0, clock

CHOICES = Path(__file__).parent / "fixtures" / "choice-pack"


@pytest.fixture(scope="module")
def bank():
    return load_bank([PACK, CHOICES])


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.sqlite3") as s:
        yield s


def put(store, card_id, **kw):
    with store.transaction():
        store._put(CardState(card_id, **kw))


# --- card ids and views -------------------------------------------------------------------------


def test_card_ids():
    assert question_card_id("q1") == "q/q1"
    assert flashcard_id("q1", "c") == "q/q1/c"
    assert parse_card_id("q/q1") == ("q1", None)
    assert parse_card_id("q/q1/c") == ("q1", "c")
    for bad in ("q1", "x/q1", ""):
        with pytest.raises(ValueError, match="not a card id"):
            parse_card_id(bad)


def test_content_cards_in_syllabus_order_and_by_module(bank):
    cards = content_cards(bank)
    assert cards[:4] == [("q/q1", "alpha"), ("q/q1/c", "alpha"), ("q/q2", "alpha"), ("q/q2/c", "alpha")]
    assert len(cards) == 14
    beta = content_cards(bank, ["beta"])
    assert {m for _, m in beta} == {"beta"} and beta[0] == ("q/q4", "beta") and len(beta) == 7


def test_card_views(bank):
    assert card_view(bank, "q/q1", "en") == CardView("q/q1", "q1", "alpha", "Question 1", "- Point 1", "question")
    assert card_view(bank, "q/q1", "zh").back == "- 要点 1"
    assert card_view(bank, "q/q7", "en").back == "Answer 7"  # no key points: the answer
    flash = card_view(bank, "q/q2/c", "zh")
    assert flash == CardView("q/q2/c", "q2", "alpha", "正面 2", "背面 2", "flashcard")
    assert card_view(bank, "q/gone", "en") is None
    assert card_view(bank, "q/q1/gone", "en") is None


# --- quiz items -----------------------------------------------------------------------------------


def test_build_items_respects_count_modules_and_mock(bank):
    items = build_items(bank, ["beta"], 3, seed=1)
    assert len(items) == 3 and all(bank.questions[i.question_id].module == "beta" for i in items)
    assert len({i.question_id for i in items}) == 3
    everything = build_items(bank, None, 100, seed=2)
    assert sorted(i.question_id for i in everything) == sorted(bank.questions)
    mock = build_items(bank, None, 100, mock=True, seed=3)
    assert {i.kind for i in mock} == {"question"}
    assert build_items(bank, ["nope"], 5) == []


def test_build_items_mixes_in_choices_from_questions_that_have_them(bank):
    kinds = set()
    for seed in range(20):
        for item in build_items(bank, None, 100, seed=seed):
            if item.kind == "choice":
                assert bank.questions[item.question_id].choices
                assert item.choice_id in {c.id for c in bank.questions[item.question_id].choices}
            else:
                assert item.choice_id is None
            kinds.add(item.kind)
    assert kinds == {"question", "choice"}


def test_build_items_is_shuffled_by_seed(bank):
    orders = {tuple(i.question_id for i in build_items(bank, None, 8, seed=s)) for s in range(6)}
    assert len(orders) > 1
    assert build_items(bank, None, 8, seed=4) == build_items(bank, None, 8, seed=4)


def test_weakest_questions_most_lapses_then_lowest_stability_then_unseen(bank, store):
    put(store, "q/q3", state=REVIEW, stability=9.0, difficulty=5, due=T0, lapses=2, reps=5)
    put(store, "q/q5", state=REVIEW, stability=2.0, difficulty=5, due=T0, lapses=2, reps=5)
    put(store, "q/q1", state=REVIEW, stability=1.0, difficulty=5, due=T0, lapses=0, reps=1)
    put(store, "q/q6", state=LEARNING, stability=None, difficulty=5, due=T0, lapses=0, reps=1)
    order = weakest_questions(bank, store, None)
    assert order[:4] == ["q5", "q3", "q6", "q1"]
    assert order[4:] == ["q2", "q4", "q7", "q8"]  # unseen, by id
    assert weakest_questions(bank, store, ["alpha"])[:2] == ["q3", "q1"]
    assert weakest_questions(bank, None, ["beta"]) == ["q4", "q5", "q6", "q8"]


def test_weakest_mode_takes_the_weakest_count(bank, store):
    put(store, "q/q5", state=REVIEW, stability=2.0, difficulty=5, due=T0, lapses=3, reps=5)
    put(store, "q/q2", state=REVIEW, stability=2.0, difficulty=5, due=T0, lapses=1, reps=5)
    items = build_items(bank, None, 2, store=store, weakest=True, mock=True)
    assert [i.question_id for i in items] == ["q5", "q2"]
    assert [i.question_id for i in build_items(bank, None, 1, store=store, weakest=True, mock=True)] == ["q5"]


# --- keyword coverage and choices -----------------------------------------------------------------


def test_keyword_coverage_ignores_case_spaces_and_separators():
    covered, missing = keyword_coverage(
        "The Grad-Fn node; we save_for backward and use all.reduce",
        ["grad_fn", "save for backward", "all-reduce", "leaf", ""],
        "en",
    )
    assert covered == ["grad_fn", "save for backward", "all-reduce"]
    assert missing == ["leaf", ""]
    assert keyword_coverage("", ["a"], "en") == ([], ["a"])
    assert keyword_coverage("x/y", ["X Y"], "en") == (["X Y"], [])


def test_keyword_coverage_counts_a_concept_group_by_any_synonym_in_either_language():
    ring = KeywordGroup(en=["ring all-reduce"], zh=["环形规约"])
    leaf = KeywordGroup(en=["leaf tensor"], zh=["叶子张量"])
    assert keyword_coverage("用 环形 规约 同步梯度", [ring, leaf], "en") == ([ring], [leaf])
    assert keyword_coverage("a RING_ALL-REDUCE of the leaf tensors", [ring, leaf], "zh") == ([ring, leaf], [])
    assert keyword_coverage("ＬＥＡＦ Tensor", [leaf], "en") == ([leaf], [])  # full-width letters match too


def test_choice_grading(bank):
    single = bank.questions["q7"].choices[0]
    assert choice_correct(single, {1}) and not choice_correct(single, {0}) and not choice_correct(single, {0, 1})
    many = bank.questions["q8"].choices[0]
    assert choice_correct(many, {0, 2})
    assert not choice_correct(many, {0})  # one right pick of two is not enough
    assert not choice_correct(many, {0, 1, 2}) and not choice_correct(many, set())


def test_summary_figures():
    a, b, c = QuizItem("question", "q1"), QuizItem("choice", "q2", "x"), QuizItem("question", "q3")
    summary = QuizSummary(
        [
            QuizOutcome(a, True, 3, 10.04),
            QuizOutcome(b, False, None, 5.0),
            QuizOutcome(c, False, 1, 2.5),
            QuizOutcome(QuizItem("question", "q2"), False, 2, 1.0),
        ]
    )
    assert summary.correct == 1
    assert summary.seconds == pytest.approx(18.54)
    assert summary.weakest() == ["q2", "q3"]  # no rating first, then by rating
    assert summary.weakest(limit=1) == ["q2"]
    d = summary.to_dict()
    assert (d["items"], d["correct"], d["seconds"], d["weakest"]) == (4, 1, 18.5, ["q2", "q3"])
    assert d["outcomes"][0] == {
        "kind": "question",
        "question": "q1",
        "choice": None,
        "correct": True,
        "rating": 3,
        "seconds": 10.0,
    }
    assert d["outcomes"][1]["choice"] == "x"
    assert QuizSummary().to_dict()["items"] == 0


# --- review sessions ------------------------------------------------------------------------------


def review(store, bank, **kw):
    limits = kw.pop("limits", None) or Limits()
    return ReviewSession(store, bank, kw.pop("clk", None) or clock(), FsrsScheduler(fuzz=False), limits, **kw)


def test_rating_counts_and_ratings(bank, store):
    s = review(store, bank)
    assert s.reviewed == 0 and s.ratings == {1: 0, 2: 0, 3: 0, 4: 0}
    for rating in (3, 1, 3):
        state, _ = s.next_card()
        after = s.rate(state, rating, 1000)
        assert after.reps == 1 and store.card(state.card_id) == after
    assert s.reviewed == 3 and s.ratings == {1: 1, 2: 0, 3: 2, 4: 0}
    s.undo()
    assert s.reviewed == 2 and s.ratings == {1: 1, 2: 0, 3: 1, 4: 0}


def test_undo_with_nothing_to_undo_changes_nothing(bank, store):
    s = review(store, bank)
    assert s.undo() is None and s.reviewed == 0


def test_undo_is_per_session_a_new_session_cannot_undo_an_earlier_rating(bank, store):
    first = review(store, bank)
    state, _ = first.next_card()
    rated = first.rate(state, 3)
    second = review(store, bank)
    assert second.undo() is None and second.reviewed == 0
    assert store.card("q/q1") == rated and "q/q1" not in second.queue.new
    action = first.undo()  # the session that rated it still can
    assert action is not None and (action.kind, action.card_id, action.rating) == ("rate", "q/q1", 3)
    assert action.before.is_new and store.card("q/q1").is_new and first.reviewed == 0


def test_rating_takes_the_card_out_of_the_new_queue_at_once(bank, store):
    s = review(store, bank, limits=Limits(new_per_day=3))
    state, view = s.next_card()
    assert view.front == "Question 1"
    s.rate(state, 4)
    assert "q/q1" not in s.queue.new and len(s.queue.new) == 2


def test_next_card_skips_cards_whose_content_is_gone(bank, store):
    put(store, "q/gone", state=REVIEW, stability=5, difficulty=5, due=T0 - timedelta(days=1), reps=2)
    put(store, "q/q2", state=REVIEW, stability=5, difficulty=5, due=T0 - timedelta(days=1), reps=2)
    s = review(store, bank)
    s.content.append(("q/gone", "alpha"))  # its store row is still in today's due list
    s.refresh()
    state, view = s.next_card()
    assert state.card_id == "q/q2" and view.question_id == "q2"


def test_next_card_is_none_when_nothing_is_left(bank, store):
    s = review(store, bank, limits=Limits(new_per_day=0))
    assert s.next_card() is None


def test_preview_gives_four_growing_intervals(bank, store):
    s = review(store, bank)
    state, _ = s.next_card()
    preview = s.preview(state)
    assert list(preview) == [1, 2, 3, 4]
    assert preview[1] <= preview[2] <= preview[3] < preview[4]
    assert store.review_count() == 0


def test_suspend_and_bury_refresh_the_queue(bank, store):
    s = review(store, bank, limits=Limits(new_per_day=4))
    state, _ = s.next_card()
    s.suspend(state)
    assert store.card("q/q1").suspended and "q/q1" not in s.queue.new
    state, _ = s.next_card()
    assert state.card_id == "q/q1/c"
    s.bury(state)
    buried = store.card("q/q1/c").buried_until
    assert buried == T0.replace(hour=4) + timedelta(days=1)  # the next study day, 04:00 UTC
    assert "q/q1/c" not in s.queue.new


def test_modules_limit_the_session(bank, store):
    s = review(store, bank, modules=["beta"], limits=Limits(new_per_day=50))
    assert all(c.startswith(("q/q4", "q/q5", "q/q6", "q/q8")) for c in s.queue.new)
    assert s.queue.new[0] == "q/q4"


def test_interleaved_session_alternates_modules(bank, store):
    s = review(store, bank, interleaved=True, limits=Limits(new_per_day=3))
    assert s.queue.new == ["q/q1", "q/q4", "q/q1/c"]


def test_learning_cards_later_today(bank, store):
    s = review(store, bank)
    assert s.learning_later_today() == (0, None)
    soon, later = T0 + timedelta(minutes=10), T0 + timedelta(hours=3)
    put(store, "q/q1", state=LEARNING, stability=1, difficulty=5, due=later, reps=1)
    put(store, "q/q2", state=LEARNING, stability=1, difficulty=5, due=soon, reps=1)
    put(store, "q/q3", state=3, stability=1, difficulty=5, due=later, reps=4, lapses=1)
    put(store, "q/q4", state=LEARNING, stability=1, difficulty=5, due=soon, reps=1, suspended=True)
    put(store, "q/q5", state=REVIEW, stability=5, difficulty=5, due=soon, reps=3)
    put(store, "q/q6", state=LEARNING, stability=1, difficulty=5, due=T0 + timedelta(days=1), reps=1)
    put(store, "q/gone", state=LEARNING, stability=1, difficulty=5, due=soon, reps=1)
    put(store, "q/q1/c", state=LEARNING, stability=1, difficulty=5, due=T0, reps=1)  # due now, not later
    assert s.learning_later_today() == (3, soon)
