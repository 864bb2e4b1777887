"""HTML notices: the text a browser shows, one block a paragraph, item, cell, heading or figure."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from generator.lint.extract.blocks import Block, Extracted, _fail, _read, _squash

_HTML_SKIP = frozenset({"head", "script", "style", "template", "noscript", "title", "svg", "math"})
_HTML_KINDS = {
    "p": "paragraph",
    "li": "list-item",
    "td": "table-cell",
    "th": "table-cell",
    "figcaption": "caption",
    "caption": "caption",
    "pre": "preformatted",
    **{f"h{n}": "heading" for n in range(1, 7)},
}
# Elements that start a new line in a browser but give their text no particular kind.
_HTML_GENERIC = frozenset(
    {
        *("address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div"),
        *("dl", "dt", "fieldset", "figure", "footer", "form", "header", "hgroup", "hr", "html"),
        *("legend", "main", "nav", "ol", "section", "summary", "table", "tbody", "tfoot"),
        *("thead", "tr", "ul"),
    }
)
# Innermost wins among these; a <p> inside a <td> or <li> still reads as the cell or item.
_HTML_SPECIFIC = ("heading", "caption", "preformatted", "list-item", "table-cell")
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE
)


def _html_encoding(path: Path, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if b"\x00" in data:
        return _fail(path, "not an HTML file (it holds binary data)")
    found = _META_CHARSET.search(data[:4096])
    declared = found.group(1).decode("ascii").lower() if found else "utf-8"
    for encoding in (declared, "utf-8", "cp1252"):
        try:
            data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        return encoding
    return _fail(path, "not an HTML file in a readable text encoding")


def _extract_html(path: Path) -> Extracted:
    from lxml import etree, html

    data = _read(path)
    encoding = _html_encoding(path, data)
    has_image = re.search(rb"<img\b", data, re.IGNORECASE) is not None
    if not data.decode(encoding).strip():
        return Extracted(path, "html", [], has_image=has_image)
    parser = html.HTMLParser(encoding=encoding, remove_comments=True, remove_pis=True)
    try:
        root = html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        return _fail(path, f"not a readable HTML file ({exc})")

    blocks: list[Block] = []
    buf: list[str] = []
    touched: dict[str, None] = {}  # clause ids around the buffered text, in order
    kinds: list[str] = []
    clauses: list[list[str]] = []
    figures = 0

    def add(text: str | None) -> None:
        if text:
            buf.append(text)
            if not text.isspace():
                touched.update(dict.fromkeys(i for ids in clauses for i in ids))

    def flush(kind: str | None = None) -> None:
        text = _squash("".join(buf))
        if text:
            if kind is None:
                kind = next((k for k in reversed(kinds) if k in _HTML_SPECIFIC), "paragraph")
            blocks.append(Block(len(blocks) + 1, text, None, kind, tuple(touched)))
        buf.clear()
        touched.clear()

    walk = etree.iterwalk(root, events=("start", "end"))
    skipped: set[Any] = set()
    for event, el in walk:
        if not isinstance(el.tag, str):
            if event == "end":
                add(el.tail)
            continue
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if event == "start":
            if tag in _HTML_SKIP or el.get("hidden") is not None:
                skipped.add(el)
                walk.skip_subtree()
                continue
            ids = (el.get("data-clause") or "").split()
            clauses.append(ids)
            if tag in _HTML_KINDS or tag in _HTML_GENERIC:
                flush()
                kinds.append(_HTML_KINDS.get(tag, ""))
            figures += tag == "figure"
            if tag == "br":
                add(" ")
            elif tag == "img" and figures and (el.get("alt") or "").strip():
                flush()
                add(el.get("alt"))
                flush("image")
            add(el.text)
            continue
        if el in skipped:
            skipped.discard(el)
        else:
            if tag in _HTML_KINDS or tag in _HTML_GENERIC:
                flush()
                kinds.pop()
            figures -= tag == "figure"
            clauses.pop()
        add(el.tail)
    flush()
    return Extracted(path, "html", blocks, has_image=has_image)
