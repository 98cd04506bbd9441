"""The bank as an Anki deck package (.apkg): a deck per module, one note per card, GUIDs from the card ids."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from quiz.content.bank import Bank
from quiz.content.models import Question, Text
from quiz.export.html import code_css, markdown_html, markdown_inline_html, plain_html
from quiz.session.cards import flashcard_id, question_card_id

PARENT = {"en": "AI Infra Interview", "zh": "AI 基础设施面试", "both": "AI Infra Interview · AI 基础设施面试"}
FIELDS = ("Front", "Back", "Number", "Module", "Source")
GUID_SPACE = "ai-infra-quiz"  # never change: Anki matches notes across exports by GUID

_CSS = """\
.card { font-family: -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", sans-serif; font-size: 18px;
        line-height: 1.5; text-align: left; color: #1d1d1f; background: #ffffff; }
.card.nightMode { color: #e8e8e8; background: #1e1e1e; }
.meta { font-size: 13px; color: #6e6e73; margin-bottom: .6em; }
.nightMode .meta { color: #a0a0a5; }
.lang + .lang { border-top: 1px dashed #999; margin-top: .8em; padding-top: .8em; }
pre.highlight { padding: .6em; border-radius: 6px; overflow-x: auto; font-size: 15px; background: #f6f8fa; }
.nightMode pre.highlight { background: #272822; }
code { font-family: "JetBrains Mono", Menlo, Consolas, monospace; }
.source { font-size: 12px; color: #6e6e73; margin-top: 1em; }
"""

_FRONT = '<div class="meta">#{{Number}} · {{Module}}</div>\n{{Front}}'
_BACK = '{{FrontSide}}\n<hr id="answer">\n{{Back}}\n<div class="source">{{Source}}</div>'


def stable_id(*parts: str) -> int:
    """A model or deck id that stays the same across exports (Anki ids are positive 63-bit numbers)."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return (1 << 40) + int.from_bytes(digest[:5], "big")


def note_guid(card_id: str) -> str:
    """The note's GUID: from the project's card id only, so content edits update the note in place."""
    import genanki

    return genanki.guid_for(GUID_SPACE, card_id)


@dataclass(frozen=True)
class ExportSummary:
    path: Path
    decks: int
    notes: int


def _langs(lang: str) -> tuple[str, ...]:
    return ("en", "zh") if lang == "both" else (lang,)


def _text(value: Text, lang: str) -> str:
    parts = [markdown_html(value.get(x)) for x in _langs(lang)]
    return parts[0] if len(parts) == 1 else "".join(f'<div class="lang">{p}</div>' for p in parts)


def _answer(q: Question, lang: str) -> str:
    parts = []
    for x in _langs(lang):
        points = q.key_points.get(x)
        html = ""
        if points:
            html += "<ul>" + "".join(f"<li>{markdown_inline_html(p)}</li>" for p in points) + "</ul>"
        html += markdown_html(q.answer.get(x))
        parts.append(html)
    return parts[0] if len(parts) == 1 else "".join(f'<div class="lang">{p}</div>' for p in parts)


def _name(value: Text, lang: str) -> str:
    return " · ".join(dict.fromkeys(value.get(x) for x in _langs(lang)))


def _model():
    import genanki

    return genanki.Model(
        stable_id("model", "v1"),
        "AI Infra Interview card",
        fields=[{"name": f} for f in FIELDS],
        templates=[{"name": "Card", "qfmt": _FRONT, "afmt": _BACK}],
        css=_CSS + code_css(),
    )


def _source(bank: Bank, q: Question, source_url: str | None) -> str:
    path = bank.question_paths.get(q.id)
    rel = f"{path.parent.name}/{path.name}" if path else q.id
    if source_url:
        href = plain_html(source_url.rstrip("/") + "/" + rel)
        return f'<a href="{href}">{plain_html(rel)}</a>'
    return plain_html(rel)


def build_package(bank: Bank, lang: str = "en", modules: list[str] | None = None, source_url: str | None = None):
    """The genanki Package: decks in syllabus order, each question's card then its flashcards."""
    import genanki

    model = _model()
    parent = PARENT[lang]
    decks = []
    for module in bank.ordered_modules():
        if modules and module.id not in modules:
            continue
        deck = genanki.Deck(stable_id("deck", module.id), f"{parent}::{module.number:02d} {_name(module.name, lang)}")
        module_name = plain_html(_name(module.name, lang))
        for q in bank.ordered_questions(module.id):
            number = str(q.number) if q.number is not None else ""
            tags = [f"module::{q.module}", f"difficulty::{q.difficulty}"]
            common = [number, module_name, _source(bank, q, source_url)]
            deck.add_note(
                genanki.Note(
                    model=model,
                    fields=[_text(q.question, lang), _answer(q, lang), *common],
                    tags=tags,
                    guid=note_guid(question_card_id(q.id)),
                )
            )
            for card in q.cards:
                deck.add_note(
                    genanki.Note(
                        model=model,
                        fields=[_text(card.front, lang), _text(card.back, lang), *common],
                        tags=tags,
                        guid=note_guid(flashcard_id(q.id, card.id)),
                    )
                )
        if deck.notes:
            decks.append(deck)
    return genanki.Package(decks)


def export_anki(
    bank: Bank, dest: Path, lang: str = "en", modules: list[str] | None = None, source_url: str | None = None
) -> ExportSummary:
    """Write the package to `dest` (under a temporary name, then renamed: never a half-written file)."""
    package = build_package(bank, lang, modules, source_url)
    dest = Path(dest)
    tmp = dest.with_name(dest.name + ".tmp")
    try:
        package.write_to_file(str(tmp))
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return ExportSummary(dest, len(package.decks), sum(len(d.notes) for d in package.decks))
