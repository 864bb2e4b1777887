"""Plain text notices: paragraphs between blank lines, a bulleted line an item of its own."""

from __future__ import annotations

import re
from pathlib import Path

from generator.lint.extract.blocks import Block, Extracted, _fail, _read, _squash


def _decode(path: Path, data: bytes, what: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return _fail(path, f"not a readable {what} file (broken UTF-16 text)")
    if b"\x00" in data:
        return _fail(path, f"not a {what} file (it holds binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Notepad and older Word "plain text" saves use Windows-1252; its smart quotes and §
        # decode correctly, and the clauses the checks look for are plain letters and digits.
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return _fail(path, f"not a {what} file in UTF-8 or Windows-1252 encoding")


_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_BULLET_LINE = re.compile(r"^[-*•–]\s")
_LIST_LINE = re.compile(r"^(?:[-*•–]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)")


def _extract_txt(path: Path) -> Extracted:
    text = _decode(path, _read(path), "text")
    # A web page copied as text keeps its line-break tags ("28th <br />day of February"): each
    # is the end of a line, as it was on the page.
    text = _BREAK_TAG.sub("\n", text)
    blocks: list[Block] = []
    lines: list[str] = []

    def flush() -> None:
        if lines:
            joined = _squash(" ".join(lines))
            blocks.append(Block(len(blocks) + 1, joined, None, _txt_kind(lines)))
            lines.clear()

    for line in text.splitlines():
        if not line.strip():
            flush()
            continue
        if _BULLET_LINE.match(line.strip()):
            flush()  # a bulleted line starts its own item, as it does in the HTML and DOCX
        lines.append(line.strip())
    flush()
    return Extracted(path, "txt", blocks)


def _txt_kind(lines: list[str]) -> str:
    if _BULLET_LINE.match(lines[0]) or (len(lines) == 1 and _LIST_LINE.match(lines[0])):
        return "list-item"
    if len(lines) == 1 and lines[0].isupper() and len(lines[0].split()) <= 12:
        return "heading"
    return "paragraph"
