"""The type each letter of a PDF or Word notice is set in: its size in points, and whether bold.

Only the letters and digits are kept, case-folded, so a statement found in the text can be found
again here whatever the spacing, hyphenation, quotes or line breaks between its words
(`compact`). A PDF is read with pdfium, page by page (only the pages asked for); a letter's size
is its font size scaled by the text and page matrices, and it is bold when its font's name says
so (Bold, Black, Heavy, Semibold, Demibold), its weight is 600 or more, or the font forces bold.
A Word file's letters take their bold and size from the run, its character style, the
paragraph's style (each through its `basedOn` chain) and the document's defaults, as Word does;
deleted text is skipped.
"""

from __future__ import annotations

import ctypes
import math
import unicodedata
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.lint.extract.docx import _docx_parts, _Package, _xml

_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold", "demi")
_FORCE_BOLD = 1 << 18  # the PDF font descriptor's ForceBold flag (bit 19)
_WORD_DEFAULT_HALF_POINTS = 20  # Word's size when neither a style nor the defaults give one
_SKIPPED = ("del", "moveFrom", "instrText", "delText")


@dataclass
class Styled:
    """A document's letters in reading order, each with its size, weight and page."""

    chars: list[str] = field(default_factory=list)
    sizes: list[float | None] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)
    pages: list[int | None] = field(default_factory=list)

    def add(self, text: str, size: float | None, bold: bool, page: int | None) -> None:
        """Append the letters of `text` (compacted), all set in one type."""
        for ch in compact(text):
            self.chars.append(ch)
            self.sizes.append(size)
            self.bold.append(bold)
            self.pages.append(page)

    def find(self, words: str) -> Iterable[range]:
        """Every place the letters of `words` occur, as ranges of indices."""
        text, needle = "".join(self.chars), compact(words)
        if not needle:
            return
        at = text.find(needle)
        while at >= 0:
            yield range(at, at + len(needle))
            at = text.find(needle, at + len(needle))


def compact(text: str) -> str:
    """The letters and digits of `text`, case-folded: what survives any layout."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def pdf_styled(path: Path, pages: set[int]) -> Styled:
    """The letters of the given pages (1-based) of a PDF, with their type."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    out = Styled()
    doc = pdfium.PdfDocument(str(path))
    try:
        for number in sorted(pages):
            page = doc[number - 1]
            textpage = page.get_textpage()
            try:
                _pdf_page(textpage.raw, number, out, pdfium_c)
            finally:
                textpage.close()
                page.close()
    finally:
        doc.close()
    return out


def _pdf_page(tp: Any, number: int, out: Styled, c: Any) -> None:
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    matrix = c.FS_MATRIX()
    for i in range(c.FPDFText_CountChars(tp)):
        code = c.FPDFText_GetUnicode(tp, i)
        if not code or c.FPDFText_IsGenerated(tp, i) == 1:
            continue  # a space or line break pdfium adds between words
        letter = chr(code)
        if not compact(letter):
            continue
        size = c.FPDFText_GetFontSize(tp, i)
        if c.FPDFText_GetMatrix(tp, i, ctypes.byref(matrix)):
            size *= math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        c.FPDFText_GetFontInfo(tp, i, name, len(name), ctypes.byref(flags))
        font = name.value.decode("latin-1").lower().split("+", 1)[-1]
        bold = (
            any(word in font for word in _BOLD_NAMES)
            or c.FPDFText_GetFontWeight(tp, i) >= 600
            or bool(flags.value & _FORCE_BOLD)
        )
        out.add(letter, round(size, 2), bold, number)


def docx_styled(path: Path) -> Styled:
    """The letters of a Word file's body, with the type Word would set them in."""
    with zipfile.ZipFile(path) as archive:
        package = _Package(path, archive)
        main, targets = _docx_parts(path, package)
        root = _xml(package.read(main))
        name = targets.get("styles")
        styles_xml = package.read(name) if name and name in package.entries else None
    ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    styles = _WordStyles(styles_xml, ns)
    out = Styled()
    body = root.find(ns + "body")
    if body is None:
        return out
    skipped = {ns + s for s in _SKIPPED}
    for p in body.iter(ns + "p"):
        ppr = p.find(ns + "pPr")
        para = _val(ppr.find(ns + "pStyle"), ns) if ppr is not None else None
        for r in p.iter(ns + "r"):
            if _nearest(r, ns + "p") is not p or _inside(r, skipped, p):
                continue
            text = "".join(t.text or "" for t in r.iter(ns + "t"))
            if not text:
                continue
            bold, half = styles.run(r.find(ns + "rPr"), para)
            out.add(text, half / 2, bold, None)
    return out


def _nearest(el: Any, tag: str) -> Any:
    up = el.getparent()
    while up is not None and up.tag != tag:
        up = up.getparent()
    return up


def _inside(el: Any, tags: set[str], stop: Any) -> bool:
    up = el.getparent()
    while up is not None and up is not stop:
        if up.tag in tags:
            return True
        up = up.getparent()
    return False


def _val(el: Any, ns: str) -> str | None:
    return None if el is None else el.get(ns + "val")


def _on(el: Any, ns: str) -> bool | None:
    """A toggle property (`<w:b/>`, `<w:b w:val="0"/>`): None when not set."""
    if el is None:
        return None
    return el.get(ns + "val", "true").lower() not in ("0", "false", "off")


class _WordStyles:
    """Bold and size by style id, through `basedOn`, with the document's defaults."""

    def __init__(self, xml: bytes | None, ns: str) -> None:
        self.ns = ns
        self.own: dict[str, tuple[str | None, bool | None, int | None]] = {}
        self.default_para: str | None = None
        self.bold: bool = False
        self.half = _WORD_DEFAULT_HALF_POINTS
        if xml is None:
            return
        root = _xml(xml)
        defaults = root.find(f"{ns}docDefaults/{ns}rPrDefault/{ns}rPr")
        if defaults is not None:
            self.bold = bool(_on(defaults.find(ns + "b"), ns))
            size = _val(defaults.find(ns + "sz"), ns)
            self.half = int(size) if size and size.isdigit() else self.half
        for style in root.iter(ns + "style"):
            ident = style.get(ns + "styleId", "")
            rpr = style.find(ns + "rPr")
            size = _val(rpr.find(ns + "sz"), ns) if rpr is not None else None
            self.own[ident] = (
                _val(style.find(ns + "basedOn"), ns),
                _on(rpr.find(ns + "b"), ns) if rpr is not None else None,
                int(size) if size and size.isdigit() else None,
            )
            if style.get(ns + "type") == "paragraph" and style.get(ns + "default") in ("1", "true"):
                self.default_para = ident

    def chain(self, ident: str | None) -> tuple[bool | None, int | None]:
        """A style's bold and size, each from the nearest style in its chain that sets it."""
        bold = half = None
        seen: set[str] = set()
        while ident and ident in self.own and ident not in seen:
            seen.add(ident)
            based, b, h = self.own[ident]
            bold = b if bold is None else bold
            half = h if half is None else half
            ident = based
        return bold, half

    def run(self, rpr: Any, para: str | None) -> tuple[bool, int]:
        """The bold and size (half points) of a run with properties `rpr` in a paragraph style."""
        ns = self.ns
        bold = _on(rpr.find(ns + "b"), ns) if rpr is not None else None
        size = _val(rpr.find(ns + "sz"), ns) if rpr is not None else None
        half = int(size) if size and size.isdigit() else None
        char = _val(rpr.find(ns + "rStyle"), ns) if rpr is not None else None
        for b, h in (self.chain(char), self.chain(para or self.default_para)):
            bold = b if bold is None else bold
            half = h if half is None else half
        return (self.bold if bold is None else bold), (self.half if half is None else half)
