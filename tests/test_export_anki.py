"""`quiz export anki`: the .apkg opened with zipfile and sqlite3: notes, decks, tags, stable GUIDs, escaped HTML."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile

from srs_helpers import PACK
from test_cli_review import quiz
from quiz.content.loader import load_bank
from quiz.export.anki import export_anki, note_guid

TRICKY = """\
format_version: 1
id: q7
number: 7
module: beta
difficulty: 3
question: {zh: "问题 7 <b>粗</b>", en: "Is a < b && c > d? <script>alert(1)</script>"}
answer:
  zh: "答案"
  en: |
    Use `x & y`.

    ```python
    def f(x):
        return "<tag>"
    ```
key_points: {zh: ["要点"], en: ["Point <i>7</i>"]}
"""


def notes_of(path) -> dict[str, dict]:
    """guid -> {fields, tags, deck} read straight from the package's SQLite collection."""
    with zipfile.ZipFile(path) as z:
        assert "collection.anki2" in z.namelist() and "media" in z.namelist()
        data = z.read("collection.anki2")
    db = path.with_suffix(".anki2")
    db.write_bytes(data)
    conn = sqlite3.connect(db)
    try:
        decks = json.loads(conn.execute("SELECT decks FROM col").fetchone()[0])
        models = json.loads(conn.execute("SELECT models FROM col").fetchone()[0])
        out = {}
        for guid, flds, tags, did in conn.execute(
            "SELECT n.guid, n.flds, n.tags, c.did FROM notes n JOIN cards c ON c.nid = n.id"
        ):
            out[guid] = {"fields": flds.split("\x1f"), "tags": tags.split(), "deck": decks[str(did)]["name"]}
        out["_models"] = models
        return out
    finally:
        conn.close()


def tricky_pack(tmp_path, answer_suffix=""):
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    (pack / "q7.yaml").write_text(TRICKY.replace("Use `x & y`.", "Use `x & y`." + answer_suffix), encoding="utf-8")
    return pack


def test_package_has_a_deck_per_module_notes_fields_and_tags(tmp_path):
    bank = load_bank([tricky_pack(tmp_path)])
    summary = export_anki(bank, tmp_path / "out.apkg", lang="en")
    notes = notes_of(tmp_path / "out.apkg")
    models = notes.pop("_models")
    # every question and flashcard is one note: 7 questions, 6 flashcards
    assert summary.notes == len(notes) == 13 and summary.decks == 2
    (model,) = models.values()
    assert [f["name"] for f in model["flds"]] == ["Front", "Back", "Number", "Module", "Source"]
    assert ".nightMode" in model["css"] and ".highlight" in model["css"]
    q7 = notes[note_guid("q/q7")]
    assert q7["deck"] == "AI Infra Interview::02 Beta"
    assert set(q7["tags"]) == {"module::beta", "difficulty::3"}
    *_, number, module, source = q7["fields"]
    assert number == "7" and module == "Beta" and source == "pack/q7.yaml"
    assert notes[note_guid("q/q1/c")]["fields"][:2] == ["<p>Front 1</p>", "<p>Back 1</p>"]
    assert notes[note_guid("q/q1/c")]["deck"] == "AI Infra Interview::01 Alpha"


def test_html_in_content_is_escaped_and_code_is_highlighted(tmp_path):
    bank = load_bank([tricky_pack(tmp_path)])
    export_anki(bank, tmp_path / "out.apkg", lang="en")
    front, back, *_ = notes_of(tmp_path / "out.apkg")[note_guid("q/q7")]["fields"]
    assert "<script>" not in front and "&lt;script&gt;alert(1)&lt;/script&gt;" in front
    assert "a &lt; b &amp;&amp; c &gt; d" in front
    assert "<i>" not in back and "<li>Point &lt;i&gt;7&lt;/i&gt;</li>" in back
    assert "<code>x &amp; y</code>" in back
    assert '<pre class="highlight">' in back and '<span class="k">def</span>' in back
    assert "&quot;&lt;tag&gt;&quot;" in back and "<tag>" not in back


def test_guids_stay_the_same_when_content_changes_between_exports(tmp_path):
    first = tmp_path / "one"
    first.mkdir()
    export_anki(load_bank([tricky_pack(first)]), tmp_path / "1.apkg", lang="en")
    second = tmp_path / "two"
    second.mkdir()
    export_anki(load_bank([tricky_pack(second, answer_suffix=" Edited.")]), tmp_path / "2.apkg", lang="zh")
    one, two = notes_of(tmp_path / "1.apkg"), notes_of(tmp_path / "2.apkg")
    one.pop("_models"), two.pop("_models")
    assert set(one) == set(two)
    assert note_guid("q/q7") in one and len(set(one)) == 13
    assert one[note_guid("q/q7")]["fields"][1] != two[note_guid("q/q7")]["fields"][1]  # updated in place


def test_both_languages_and_one_module_from_the_command_line(tmp_path, isolated_home):
    out = tmp_path / "deck.apkg"
    result = quiz(
        "--content",
        str(tricky_pack(tmp_path)),
        "export",
        "anki",
        "--lang",
        "both",
        "--module",
        "alpha",
        str(out),
        home=isolated_home,
    )
    assert result.returncode == 0, result.stderr
    notes = notes_of(out)
    notes.pop("_models")
    assert {n["deck"].split("::")[1] for n in notes.values()} == {"01 Alpha · 甲"}
    front = notes[note_guid("q/q1")]["fields"][0]
    assert "Question 1" in front and "问题 1" in front
    bad = quiz("export", "anki", "--module", "nope", str(out), home=isolated_home)
    assert bad.returncode == 2 and "unknown module" in bad.stderr
