"""The Markdown of an amendment's text, read as data: one safe reading for every format.

The text is CommonMark, read by markdown-it-py in linear time (Python-Markdown took 5 s over
4,000 `[` and grew with their square: a hostile text could stall a build for hours), with

- raw HTML shown as the text it is, never obeyed; `<br>` alone is read as the line break a
  clerk who types it means;
- character references decoded (`&nbsp;` is a non-breaking space);
- a link kept only when it goes to an `http`, `https` or `mailto` address: any other
  (`javascript:`, `data:`, relative, `//host`, however spelled) keeps its words and loses its
  link, since a published page would run or fetch it;
- an image replaced by its alt text. `problem()` refuses images at load: no notice prints
  pictures inside the text of an amendment, and a picture silently dropped would change it.

Every format (HTML, PDF, Word, plain text) is made from `tokens()`; none reads Markdown itself.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

SAFE_SCHEMES = ("http", "https", "mailto")

# Characters XML 1.0 (so Word, and lxml) cannot hold: C0 controls but tab and newline, lone
# surrogates, U+FFFE and U+FFFF.
_UNPRINTABLE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_WEB = re.compile(r"https?://[^/?#@\s]*[^/?#:@\s]", re.IGNORECASE)

# markdown-it drops whatever lies deeper than its nesting limit; `problem()` refuses a text
# that comes near it, so nothing is dropped from a text that loads.
_NESTING = 20
_DEEPEST = _NESTING - 3


def safe_href(href: str) -> bool:
    """True for an absolute `http(s)://host...` or `mailto:...` address, as markdown-it wrote it.

    markdown-it has decoded character references and percent-encoded spaces and controls, so a
    scheme spelled with a tab or an entity no longer reads as one and the link is refused. A
    web address with a user name (`https://city.example@evil.example`) is refused too: it
    misleads a reader about where it goes.
    """
    scheme = _SCHEME.match(href)
    if scheme is None or scheme[1].lower() not in SAFE_SCHEMES:
        return False
    if scheme[1].lower() == "mailto":
        return len(href) > len("mailto:")
    return _WEB.match(href) is not None


def _br_tag(state: StateInline, silent: bool) -> bool:
    """`<br>`, `<br/>` or `<br />`: a hard line break, the one tag a text may use."""
    found = _BR.match(state.src, state.pos)
    if found is None:
        return False
    if not silent:
        state.push("hardbreak", "br", 0)
    state.pos = found.end()
    return True


def _made_safe(state: StateCore) -> None:
    """Unwrap links to unsafe addresses (their words stay) and put images' alt text in their place.

    Each image replaced is noted in `state.env["images"]` as (line, alt text, source).
    """
    for block in state.tokens:
        if block.type == "inline" and block.children:
            block.children = _safe_inline(block, state.md, state.env.setdefault("images", []))


def _safe_inline(
    block: Token, md: MarkdownIt, images: list[tuple[int | None, str, str]]
) -> list[Token]:
    out: list[Token] = []
    kept: list[bool] = []  # one entry per open link: was it kept?
    for token in block.children or ():
        if token.type == "link_open":
            kept.append(safe_href(str(token.attrs.get("href", ""))))
            if kept[-1]:
                out.append(token)
        elif token.type == "link_close":
            if kept.pop():
                out.append(token)
        elif token.type == "image":
            alt = Token("text", "", 0)
            alt.content = md.renderer.renderInlineAsText(token.children or [], md.options, {})
            out.append(alt)
            line = block.map[0] + 1 if block.map else None
            images.append((line, alt.content, str(token.attrs.get("src", ""))))
        else:
            out.append(token)
    return out


def _reader() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False, "maxNesting": _NESTING})
    md.disable(["html_block", "html_inline"])
    md.inline.ruler.before("autolink", "br_tag", _br_tag)
    # Every link is parsed alike; `_made_safe` then decides, so a refused one keeps its words.
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    md.core.ruler.push("made_safe", _made_safe)
    return md


READER = _reader()


@functools.lru_cache(maxsize=8)
def tokens(text: str) -> tuple[Token, ...]:
    """The text's Markdown tokens, made safe; shared by every format (do not change them)."""
    return tuple(READER.parse(_UNPRINTABLE.sub("\ufffd", text), {}))


def problem(text: str) -> str | None:
    """Why `text` cannot be printed faithfully in a notice, or None when it can."""
    bad = _UNPRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        return (
            f"line {line} of the text holds the character U+{ord(bad[0]):04X}, a control"
            " character no document can hold: remove it"
        )
    images: dict[str, list[tuple[int | None, str, str]]] = {}
    for block in READER.parse(text, images):
        if block.level >= _DEEPEST:
            where = f"line {block.map[0] + 1} of the text" if block.map else "the text"
            return f"{where}: lists or quotations are nested too deeply to print; flatten them"
    if images.get("images"):
        line, alt, src = images["images"][0]
        return (
            f"line {line} of the text: an image ({alt or 'no alt text'}: {src}) cannot be"
            " printed in the text of an amendment; describe it in words"
        )
    return None
