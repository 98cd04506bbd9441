"""Markdown to HTML for other apps: raw HTML in content is escaped, fenced code is highlighted by Pygments."""

from __future__ import annotations

from functools import lru_cache
from html import escape


@lru_cache(maxsize=1)
def _renderer():
    from markdown_it import MarkdownIt

    # html=False: any HTML written in the content shows as text, never as markup
    return MarkdownIt("commonmark", {"html": False, "highlight": _highlight}).enable("table")


def _highlight(code: str, lang: str, _attrs: str) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(lang or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    body = highlight(code, lexer, HtmlFormatter(nowrap=True))
    return f'<pre class="highlight"><code>{body}</code></pre>\n'


def markdown_html(text: str) -> str:
    """The HTML for one Markdown text."""
    return _renderer().render(text or "").strip()


def markdown_inline_html(text: str) -> str:
    """The HTML for one line of Markdown (a list item), without a paragraph around it."""
    return _renderer().renderInline(text or "").strip()


def plain_html(text: str) -> str:
    """Plain text made safe for HTML."""
    return escape(text or "", quote=True)


def code_css() -> str:
    """Highlighting rules for the light theme and for Anki's night mode (`.nightMode`)."""
    from pygments.formatters import HtmlFormatter

    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    dark = HtmlFormatter(style="monokai").get_style_defs(".nightMode .highlight")
    return light + "\n" + dark
