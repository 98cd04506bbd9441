"""The card browser's search: words, module:, state:, tag:, over every card of the content."""

from __future__ import annotations

from datetime import timedelta

from srs_helpers import T0, small_bank
from quiz.session.browse import CardRow, card_rows, parse_query, search
from quiz.srs.cardstate import REVIEW, CardState
from quiz.srs.store import Store


def test_parse_query_takes_fields_and_words():
    q = parse_query("module:Alpha state:suspended tag:autograd save for")
    assert (q.text, q.module, q.state, q.tag) == ("save for", "alpha", "suspended", "autograd")
    assert parse_query("module: plain").text == "module: plain"


def test_search_by_text_module_state_and_tag():
    rows = [
        CardRow("q/a", "alpha", "What is autograd?", "grad_fn", ("autograd",), CardState("q/a")),
        CardRow(
            "q/b", "beta", "NCCL rings", "all-reduce", ("nccl",), CardState("q/b", state=REVIEW, due=T0, suspended=True)
        ),
        CardRow("q/c", "beta", "Buried one", "x", (), CardState("q/c", buried_until=T0 + timedelta(hours=2))),
    ]
    ids = lambda raw: [r.card_id for r in search(rows, parse_query(raw), T0)]  # noqa: E731
    assert ids("GRAD_FN") == ["q/a"]
    assert ids("module:beta") == ["q/b", "q/c"]
    assert ids("state:suspended") == ["q/b"] and ids("state:review") == ["q/b"]
    assert ids("state:buried") == ["q/c"] and ids("state:new") == ["q/a", "q/c"]
    assert ids("tag:nccl") == ["q/b"]
    assert ids("module:beta all-reduce") == ["q/b"]


def test_card_rows_cover_every_card_with_its_stored_state(tmp_path):
    with Store.open(tmp_path / "p.sqlite3") as store:
        store.set_flags("q/q2/c", suspended=True)
        rows = card_rows(small_bank(), store, "en")
    assert len(rows) == 12 and rows[0].card_id == "q/q1" and rows[1].front == "Front 1"
    assert [r.card_id for r in rows if r.state.suspended] == ["q/q2/c"]
