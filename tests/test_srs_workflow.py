"""Cards never vanish: bury comes back, unsuspend, a per-session undo stack, sibling burying, forget, stats."""

from __future__ import annotations

import pytest

from srs_helpers import clock, small_bank
from quiz.session.cards import content_cards
from quiz.session.review import ReviewSession
from quiz.srs.cardstate import CardState
from quiz.srs.queue import Limits, build_queue
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.stats import compute_stats
from quiz.srs.store import Store


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.sqlite3") as s:
        yield s


def session(store, clk=None, limits=None, **kw):
    return ReviewSession(store, small_bank(), clk or clock(), FsrsScheduler(fuzz=False), limits or Limits(), **kw)


def visible(s) -> list[str]:
    return [c.card_id for c in s.queue.due] + list(s.queue.new)


@pytest.mark.parametrize("days", [1, 2, 7])
def test_a_buried_new_card_comes_back_on_the_next_study_days(store, days):
    clk = clock()
    s = session(store, clk)
    state, _ = s.next_card()
    assert state.is_new and state.card_id == "q/q1"
    s.bury(state)
    assert "q/q1" not in visible(s)
    clk.advance(days=days)
    assert "q/q1" in visible(session(store, clk))
    assert session(store, clk).next_card()[0].card_id == "q/q1"


def test_a_buried_review_card_comes_back_the_next_day(store):
    clk = clock()
    s = session(store, clk)
    state, _ = s.next_card()
    s.rate(state, 4)  # graduates to review
    clk.advance(days=40)
    s.refresh()
    due = store.card("q/q1")
    assert "q/q1" in visible(s)
    s.bury(due)
    assert "q/q1" not in visible(s)
    clk.advance(days=1)
    assert "q/q1" in visible(session(store, clk))


def test_unsuspend_brings_a_card_back(store):
    s = session(store)
    state, _ = s.next_card()
    s.progress.suspend(state.card_id)
    s.refresh()
    assert "q/q1" not in visible(s)
    s.progress.unsuspend(state.card_id)
    s.refresh()
    assert s.next_card()[0].card_id == "q/q1"


def test_undo_is_per_session_and_names_what_it_undid(store):
    clk = clock()
    quiz_side = session(store, clk)
    a, _ = quiz_side.next_card()
    quiz_side.rate(a, 3)
    rated = store.card("q/q1")
    review_side = session(store, clk)
    assert review_side.undo() is None  # nothing of this session's to undo: the other rating stays
    assert store.card("q/q1") == rated
    b, _ = review_side.next_card()
    review_side.suspend(b)
    action = review_side.undo()
    assert (action.kind, action.card_id) == ("suspend", b.card_id)
    assert store.card("q/q1") == rated and not store.card(b.card_id).suspended
    assert review_side.undo() is None


def test_every_action_is_undone_exactly_newest_first(store):
    clk = clock()
    s = session(store, clk)
    first, _ = s.next_card()
    s.rate(first, 4)
    snapshots = [store.card("q/q1")]
    s.progress.suspend("q/q1")
    snapshots.append(store.card("q/q1"))
    s.progress.unsuspend("q/q1")
    snapshots.append(store.card("q/q1"))
    s.progress.bury("q/q1")
    snapshots.append(store.card("q/q1"))
    s.progress.unbury("q/q1")
    snapshots.append(store.card("q/q1"))
    s.progress.forget("q/q1")
    assert store.card("q/q1").is_new
    kinds = []
    while snapshots:
        kinds.append(s.undo().kind)
        assert store.card("q/q1") == snapshots.pop()
    assert s.undo().kind == "rate"
    assert store.card("q/q1") == CardState("q/q1")
    assert kinds == ["forget", "unbury", "bury", "unsuspend", "suspend"]


def test_siblings_of_a_card_rated_today_wait_until_tomorrow(store):
    clk = clock()
    s = session(store, clk)
    state, _ = s.next_card()
    s.rate(state, 3)
    assert "q/q1/c" not in visible(s)
    assert "q/q1/c" not in visible(session(store, clk))  # the rebuilt queue agrees
    clk.advance(days=1)
    assert "q/q1/c" in session(store, clk).queue.new


def test_sibling_burying_can_be_turned_off(store):
    clk = clock()
    s = session(store, clk, limits=Limits(bury_siblings=False))
    state, _ = s.next_card()
    s.rate(state, 3)
    assert s.next_card()[0].card_id == "q/q1/c"


def test_the_queue_after_a_rating_matches_a_rebuilt_one(store):
    clk = clock()
    limits = Limits(new_per_day=6, reviews_per_day=3)
    s = session(store, clk, limits=limits)
    for rating in (4, 3, 4, 1, 4, 4):
        item = s.next_card()
        if item is None:
            clk.advance(days=5)
            s.refresh()
            item = s.next_card()
        s.rate(item[0], rating)
        fresh = build_queue(store, s.content, clk, limits, sibling_key=lambda c: c.split("/")[1])
        assert [c.card_id for c in s.queue.due] == [c.card_id for c in fresh.due]
        assert s.queue.new == fresh.new
        assert (s.queue.new_done_today, s.queue.reviews_done_today) == (fresh.new_done_today, fresh.reviews_done_today)
        clk.advance(days=3)
        s.refresh()


def test_stats_count_suspended_new_cards_as_suspended(store):
    clk = clock()
    s = session(store, clk)
    s.progress.suspend("q/q2")
    stats = compute_stats(store, content_cards(small_bank()), clk, Limits())
    assert stats["by_state"]["suspended"] == 1
    assert stats["by_state"]["new"] == len(s.content) - 1


def test_mastered_comes_from_retrievability(store):
    clk = clock()
    s = session(store, clk)
    state, _ = s.next_card()
    s.rate(state, 4)  # a review card with a stability of days, far below 21
    assert store.card("q/q1").stability < 21
    content = content_cards(small_bank())
    assert compute_stats(store, content, clk, Limits())["by_module"]["alpha"]["mastered"] == 1
    clk.advance(days=120)  # long overdue: recall is now unlikely
    assert compute_stats(store, content, clk, Limits())["by_module"]["alpha"]["mastered"] == 0
    clk.advance(days=-120)
    s.progress.suspend("q/q1")
    assert compute_stats(store, content, clk, Limits())["by_state"]["suspended"] == 1
