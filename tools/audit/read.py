"""Reading a rendered PDF back: its text in blocks and lines, and where each glyph sits.

pdfplumber (on pdfminer.six) reads every page. Layout analysis groups the glyphs into lines and
the lines into text blocks, also inside form XObjects (a letter's shared body is one), so a
sentence can be read whole even on a page of several columns. Positions are in points from the
page's top-left corner, as pdfplumber gives them.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pdfplumber
from pdfminer import pdfinterp
from pdfminer.layout import LTAnno, LTChar, LTFigure, LTImage, LTTextBox, LTTextLine
from pdfminer.psparser import PSEOF

# Layout analysis as pdfminer does it by default, also inside form XObjects.
LAPARAMS = {"all_texts": True}


@dataclass(frozen=True)
class Glyph:
    """One printed character: its text, its advance box and baseline (points from the top)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float

    @property
    def core(self) -> tuple[float, float, float, float]:
        """The box the glyph's ink surely covers: inset from its advance box and its em box.

        Two glyphs whose cores meet are printed on top of each other; touching advance boxes,
        kerning and tight leading never make cores meet.
        """
        inset = (self.x1 - self.x0) * 0.15
        return (
            self.x0 + inset,
            self.baseline - 0.65 * self.size,
            self.x1 - inset,
            self.baseline - 0.05 * self.size,
        )


@dataclass
class Line:
    """A line of text and, for each character of `text`, its glyph.

    A space pdfminer inserted between words has no glyph (None).
    """

    text: str
    glyphs: list[Glyph | None]
    block: int

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """The union of the line's glyph boxes (x0, top, x1, bottom)."""
        gs = [g for g in self.glyphs if g is not None]
        return (
            min(g.x0 for g in gs),
            min(g.top for g in gs),
            max(g.x1 for g in gs),
            max(g.bottom for g in gs),
        )


@dataclass
class Block:
    """A text block as layout analysis groups it (a paragraph, an address, a table cell)."""

    bbox: tuple[float, float, float, float]
    lines: list[int] = field(default_factory=list)


@dataclass
class Page:
    """One page read back: its size, lines, blocks and image boxes (all in points)."""

    number: int
    width: float
    height: float
    lines: list[Line]
    blocks: list[Block]
    images: list[tuple[float, float, float, float]]

    def block_text(self, block: Block) -> str:
        """A block's text, its lines joined by spaces (a sentence read across line breaks)."""
        return " ".join(self.lines[i].text for i in block.lines)


class _Replay:
    """A content stream parsed before, handed to the interpreter again."""

    def __init__(self, objects: list[Any]) -> None:
        self._objects = iter(objects)

    def nextobject(self) -> Any:
        try:
            return next(self._objects)
        except StopIteration:
            raise PSEOF from None


@contextlib.contextmanager
def _parsed_once() -> Iterator[None]:
    """Parse each content stream once per document.

    Every letter of a mailing draws the same body (one form XObject, with the map's thousands
    of path points); pdfminer would tokenize it again on every page, half the time of reading
    a mailing. The interpreter is given the tokens it parsed the first time instead.
    """
    original = pdfinterp.PDFContentParser
    cache: dict[tuple[int, ...], tuple[list[Any], list[Any]]] = {}

    def parser(streams: list[Any]) -> Any:
        key = tuple(id(s) for s in streams)
        if key not in cache:
            tokens = original(streams)
            objects = []
            with contextlib.suppress(PSEOF):
                while True:
                    objects.append(tokens.nextobject())
            cache[key] = (list(streams), objects)  # the streams kept alive: ids stay theirs
        return _Replay(cache[key][1])

    pdfinterp.PDFContentParser = parser  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        pdfinterp.PDFContentParser = original  # type: ignore[misc]


def read(path: Path, numbers: list[int] | None = None) -> list[Page]:
    """The pages of a PDF (1-based `numbers`, else all), read back with their positions."""
    out = []
    with _parsed_once(), pdfplumber.open(path, laparams=LAPARAMS) as pdf:
        for number in numbers or range(1, len(pdf.pages) + 1):
            page = pdf.pages[number - 1]
            out.append(_page(number, page))
            page.close()
    return out


def outline(path: Path) -> tuple[int, float, float]:
    """How many pages the PDF has, and its first page's width and height in inches."""
    with pdfplumber.open(path) as pdf:
        first = pdf.pages[0]
        return len(pdf.pages), float(first.width) / 72, float(first.height) / 72


def _page(number: int, page: pdfplumber.page.Page) -> Page:
    height = float(page.height)
    top0 = float(page.bbox[1])
    result = Page(number, float(page.width), height, [], [], [])

    def flip(y: float) -> float:
        # pdfminer measures from the bottom of the media box; pdfplumber's convention is the top.
        return height - (y - top0)

    def walk(items: object) -> None:
        for item in items:  # type: ignore[attr-defined]
            if isinstance(item, LTTextBox):
                block = Block((item.x0, flip(item.y1), item.x1, flip(item.y0)))
                for line in item:
                    if isinstance(line, LTTextLine):
                        block.lines.append(len(result.lines))
                        result.lines.append(_line(line, len(result.blocks), flip))
                result.blocks.append(block)
            elif isinstance(item, LTFigure):
                walk(item)
            elif isinstance(item, LTImage):
                result.images.append((item.x0, flip(item.y1), item.x1, flip(item.y0)))

    walk(page.layout)
    return result


def _line(line: LTTextLine, block: int, flip: object) -> Line:
    text: list[str] = []
    glyphs: list[Glyph | None] = []
    for item in line:
        if isinstance(item, LTChar):
            s = item.get_text()
            if not s or unicodedata.category(s[0]) == "Mn":
                continue  # a combining mark sits on its base letter by design
            if s.isspace():
                s, glyph = " ", None
            else:
                glyph = Glyph(
                    s,
                    item.x0,
                    item.x1,
                    flip(item.y1),  # type: ignore[operator]
                    flip(item.y0),  # type: ignore[operator]
                    flip(item.matrix[5]) if item.upright else flip(item.y0),  # type: ignore[operator]
                    float(item.size),
                )
        elif isinstance(item, LTAnno):
            s, glyph = item.get_text(), None
            if s == "\n":
                continue
        else:
            continue
        for ch in s:
            if ch.isspace():
                # Justified text and inserted word breaks: one space, as a reader sees it.
                if not text or text[-1] == " ":
                    continue
                ch = " "
            text.append(ch)
            glyphs.append(glyph if not ch.isspace() else None)
    while text and text[-1] == " ":
        text.pop()
        glyphs.pop()
    return Line("".join(text), glyphs, block)
