"""The checks, each over what `read` gives back of a page (or, for dates, of a whole file).

Each returns `Hit`s: the page, the check's name, what is wrong, and a key naming the problem so
that the same problem on many pages (a letter body shared by every letter) is told once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date

from tools.audit import dates
from tools.audit.packet import normalize
from tools.audit.read import Glyph, Page

INCH = 72.0
# A #10 window envelope, the letter folded in thirds: where the window shows the letter, in
# inches from the page's top-left corner (x0, top, x1, bottom), and the clearance kept inside it.
WINDOW_IN = (0.9, 2.0, 5.3, 3.1)
CLEARANCE_IN = 1 / 8
# Avery 5160: 3 columns of 10 labels, 2.625 × 1 in, the first at 0.1875 in from the left and
# 0.5 in from the top, 2.75 in apart across and 1 in down (in inches, as WINDOW_IN).
LABEL_IN = (0.1875, 0.5, 2.625, 1.0)
LABEL_PITCH_IN = (2.75, 1.0)
LABEL_GRID = (3, 10)
TOLERANCE_PT = 0.5  # positions are exact in a PDF; this only absorbs rounding


@dataclass(frozen=True)
class Hit:
    """One problem on one page."""

    page: int
    check: str
    what: str
    key: str


def _snippet(text: str, start: int, end: int, room: int = 30) -> str:
    a, b = max(0, start - room), min(len(text), end + room)
    return ("…" if a else "") + text[a:b] + ("…" if b < len(text) else "")


def _quoted(text: str, limit: int = 60) -> str:
    return "“" + (text if len(text) <= limit else text[: limit - 1] + "…") + "”"


# ------------------------------------------------------------------ placeholders, punctuation


_I = re.IGNORECASE
PLACEHOLDERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("template code", re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}|\$\{")),
    ("a note left in", re.compile(r"\b(?:TODO|FIXME|TBD|XXX)\b|\?\?|lorem ipsum")),
    ("a sample marker", re.compile(r"\(sample\)", _I)),
    ("a slot's own label", re.compile(r"\(the local government\)", _I)),
    ("the program's word", re.compile(r"\bgenerated\b", _I)),
    ("an unfilled bracket", re.compile(r"[\[\]]")),
    ("a slot name", re.compile(r"<[a-z][a-z_ .]*>")),
    ("an empty slot", re.compile(r"\(\s*\)")),
    ("a value that is not there", re.compile(r"\bNone\b|\bnan\b|\bNaN\b")),
    ("a blank's label in nested brackets", re.compile(r"_{3,}\s*\([^()]*\(")),
)
PUNCTUATION: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a doubled period", re.compile(r"(?<!\.)\.\.(?!\.)")),
    ("a doubled period", re.compile(r"(?<![. ])\. +\.(?! *\.)")),
    ("a doubled comma", re.compile(r", *,")),
    ("a comma before a period", re.compile(r", *\.(?!\d)")),
    ("a doubled semicolon or colon", re.compile(r"; *;|(?<!:): *:(?!/)")),
)


def _sentence_start(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ".:;!?•"


def _in_data(text: str, start: int, end: int, data: str) -> bool:
    """Whether the words at text[start:end] are the case's or the assessor's own.

    They are when the match, with what stands beside it on either side, is found in their text.
    """
    room = 12
    for a, b in ((max(0, start - room), end), (start, min(len(text), end + room))):
        piece = normalize(text[a:b])
        if len(piece) > len(normalize(text[start:end])) and piece in data:
            return True
    return False


def text_hits(page: Page, data: str) -> list[Hit]:
    """Placeholder text and doubled punctuation, in each text block read as sentences."""
    out = []
    for block in page.blocks:
        text = page.block_text(block)
        for check, rules in (("placeholder", PLACEHOLDERS), ("punctuation", PUNCTUATION)):
            for label, pattern in rules:
                for m in pattern.finditer(text):
                    if m.group(0) == "None" and _sentence_start(text, m.start()):
                        continue  # "None of the…": English, not a missing value
                    if _in_data(text, m.start(), m.end(), data):
                        continue
                    snippet = _snippet(text, m.start(), m.end())
                    out.append(Hit(page.number, check, f"{label}: {_quoted(snippet, 90)}", snippet))
                    break  # once a block: `{{ x }}` is one slot, not two
    return out


# ---------------------------------------------------------------------------- window


def _intersects(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.0) -> bool:
    return (
        a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
    )


def is_letter_start(page: Page) -> bool:
    """Page 1 of the file, or a page whose footer says it is page 1 of a letter."""
    return page.number == 1 or any(
        re.search(r"\bpage 1 of \d+$", line.text, _I) for line in page.lines
    )


def window_hits(page: Page) -> list[Hit]:
    """The recipient block inside the envelope window with 1/8 in to spare, alone in it.

    The block is the first text block (top to bottom, then left to right) that reaches into
    the window; every other text block or image reaching into it shows through the window.
    """
    window = tuple(v * INCH for v in WINDOW_IN)
    clear = tuple(v + s * CLEARANCE_IN * INCH for v, s in zip(window, (1, 1, -1, -1), strict=True))
    inside = sorted(
        (b for b in page.blocks if _intersects(b.bbox, window, TOLERANCE_PT)),
        key=lambda b: (round(b.bbox[1]), b.bbox[0]),
    )
    if not inside:
        return [Hit(page.number, "window", "no address in the envelope window", "no address")]
    block, others = inside[0], inside[1:]
    out = []
    x0, top, x1, bottom = block.bbox
    span = (
        f"the window less {CLEARANCE_IN * 8:g}/8 in is {clear[0] / INCH:.3f}–{clear[2] / INCH:.3f} in"
        f" from the left and {clear[1] / INCH:.3f}–{clear[3] / INCH:.3f} in from the top"
    )
    for edge, bad, value in (
        ("left edge", x0 < clear[0] - TOLERANCE_PT, x0),
        ("top", top < clear[1] - TOLERANCE_PT, top),
        ("right edge", x1 > clear[2] + TOLERANCE_PT, x1),
        ("bottom", bottom > clear[3] + TOLERANCE_PT, bottom),
    ):
        if bad:
            out.append(
                Hit(
                    page.number,
                    "window",
                    f"the address block's {edge} is at {value / INCH:.3f} in; {span}",
                    f"edge {edge}",
                )
            )
    for other in others:
        text = page.block_text(other)
        out.append(
            Hit(
                page.number,
                "window",
                f"text shows through the window besides the address: {_quoted(text)}",
                "other text",
            )
        )
    for image in page.images:
        if _intersects(image, window, TOLERANCE_PT):
            out.append(Hit(page.number, "window", "an image shows through the window", "image"))
    return out


# ---------------------------------------------------------------------------- labels


def label_of(x: float, y: float) -> tuple[float, float, float, float] | None:
    """The label (x0, top, x1, bottom, in points) a point of the sheet lies on, if any."""
    left, top, width, height = (v * INCH for v in LABEL_IN)
    across, down = (v * INCH for v in LABEL_PITCH_IN)
    column, row = int((x - left) // across), int((y - top) // down)
    if not (0 <= column < LABEL_GRID[0] and 0 <= row < LABEL_GRID[1]):
        return None
    x0, y0 = left + column * across, top + row * down
    return (x0, y0, x0 + width, y0 + height) if x0 <= x <= x0 + width else None


def label_hits(page: Page) -> list[Hit]:
    """On a sheet of labels, every glyph inside the label its line starts on.

    A glyph past its label's edge is printed on the next label, in the gap between labels, or
    off the sheet's labels altogether.
    """
    out = []
    for line in page.lines:
        glyphs = [g for g in line.glyphs if g is not None and g.size >= 2]
        if not glyphs:
            continue
        first = glyphs[0]
        cell = label_of(first.x0 + TOLERANCE_PT, first.baseline - 0.5 * first.size)
        outside = [
            g
            for g in glyphs
            if cell is None
            or g.x0 < cell[0] - TOLERANCE_PT
            or g.x1 > cell[2] + TOLERANCE_PT
            or g.baseline - 0.75 * g.size < cell[1] - TOLERANCE_PT
            or g.baseline + 0.2 * g.size > cell[3] + TOLERANCE_PT
        ]
        if outside:
            out.append(
                Hit(
                    page.number,
                    "label",
                    f"{_quoted(line.text)} runs past its label"
                    if cell
                    else f"{_quoted(line.text)} is printed off the labels",
                    line.text[:40],
                )
            )
    return out


# -------------------------------------------------------------------- overlap, off the page


def _glyphs(page: Page) -> list[tuple[int, int, Glyph]]:
    return [
        (li, gi, g)
        for li, line in enumerate(page.lines)
        for gi, g in enumerate(line.glyphs)
        if g is not None and g.size >= 2
    ]


def overlap_hits(page: Page) -> list[Hit]:
    """Text printed over other text: two glyphs whose ink cores meet.

    Neighbours in a line may meet (kerning tucks a period under a P), and the same glyph drawn
    twice in the same place (a fake bold) is not an overlap.
    """
    cell = 24.0
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    glyphs = _glyphs(page)
    for n, (_li, _gi, g) in enumerate(glyphs):
        x0, y0, x1, y1 = g.core
        for cx in range(int(x0 // cell), int(x1 // cell) + 1):
            for cy in range(int(y0 // cell), int(y1 // cell) + 1):
                grid[cx, cy].append(n)
    seen: set[tuple[int, int]] = set()
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    for members in grid.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if (a, b) in seen:
                    continue
                seen.add((a, b))
                la, ga, g = glyphs[a]
                lb, gb, h = glyphs[b]
                if (
                    g.text == h.text
                    and abs(g.x0 - h.x0) < 0.5
                    and abs(g.baseline - h.baseline) < 0.5
                ):
                    continue
                if la == lb and abs(ga - gb) == 1:
                    continue  # kerning: "P." tucks the period under the P, as type should
                if _intersects(g.core, h.core):
                    pairs.setdefault(
                        (min(la, lb), max(la, lb)), (ga if la <= lb else gb, gb if la <= lb else ga)
                    )
    out = []
    for (la, lb), (ga, gb) in sorted(pairs.items()):
        ta, tb = page.lines[la].text, page.lines[lb].text
        a, b = _snippet(ta, ga, ga + 1, 20), _snippet(tb, gb, gb + 1, 20)
        what = (
            f"{_quoted(a)} is printed over {_quoted(b)}"
            if la != lb
            else f"{_quoted(a)} is printed over itself"
        )
        out.append(Hit(page.number, "overlap", what, f"{ta[:40]}|{tb[:40]}"))
    return out


def outside_hits(page: Page) -> list[Hit]:
    """Text that runs off the page: a glyph whose box reaches past an edge of the media box."""
    worst: dict[tuple[int, str], tuple[float, int]] = {}
    for li, gi, g in _glyphs(page):
        for edge, over in (
            ("left", -g.x0),
            ("right", g.x1 - page.width),
            ("top", -(g.baseline - 0.75 * g.size)),
            ("bottom", g.baseline + 0.2 * g.size - page.height),
        ):
            if over > TOLERANCE_PT and over > worst.get((li, edge), (0.0, 0))[0]:
                worst[li, edge] = (over, gi)
    out = []
    for (li, edge), (over, gi) in sorted(worst.items()):
        text = page.lines[li].text
        out.append(
            Hit(
                page.number,
                "outside-page",
                f"{_quoted(_snippet(text, gi, gi + 1, 20))} runs {over / INCH:.2f} in off the {edge} edge",
                f"{text[:40]}|{edge}",
            )
        )
    return out


# ------------------------------------------------------------------------------- dates


@dataclass(frozen=True)
class PageText:
    """What the date check needs of a page.

    Its blocks' text, the text of its one-line blocks (a letter's date line, a table cell) and
    whether it starts a letter.
    """

    number: int
    blocks: tuple[str, ...]
    lines: tuple[str, ...]
    letter_start: bool

    @classmethod
    def of(cls, page: Page) -> PageText:
        """The text of a page read back."""
        return cls(
            page.number,
            tuple(page.block_text(b) for b in page.blocks),
            tuple(page.lines[b.lines[0]].text for b in page.blocks if len(b.lines) == 1),
            is_letter_start(page),
        )


_DATE_ONLY = re.compile(r"^(?:\d+\s+)?(?P<date>.+?)(?:\s+_+)?$")
# How a document states the day it goes out, by kind: (what it is called, how it is found).
# "line": a line that is only a date (a letter's date line; an affidavit's insertion dates);
# a pattern: the date right after it.
OWN_DATE: dict[str, tuple[str, str | re.Pattern[str]]] = {
    "letters": ("letter date", "line"),
    "transmittal": ("letter date", "line"),
    "newspaper_notice": ("publication date", re.compile(r"\bPublication dates?:", _I)),
    "display_ad": ("publication date", re.compile(r"\bPublication dates?:", _I)),
    "affidavit_of_publication": ("insertion date", "line"),
    # A Spanish sign: "Fijado a más tardar el lunes, 22 de marzo de 2027".
    "sign": (
        "posting date",
        re.compile(r"\bPost(?:ed)? no later than\s+|\bFijad[oa] a más tardar el\s+", _I),
    ),
    "posting_notice": ("posting date", re.compile(r"\bPost(?:ed)? no later than\s+", _I)),
    "website_notice": ("posting date", re.compile(r"\bPosted\b.{0,300}?\bon or before\s+", _I)),
    "certificate_of_posting": (
        "posting date",
        re.compile(r"(?:\bposted\b.{0,600}?|\bWhen:.{0,300}?)\b(?:no|not) later than\s+", _I),
    ),
    "affidavit_of_mailing": ("mailing date", re.compile(r"\b(?:no|not) later than\s+", _I)),
    "certificate_of_mailing": ("mailing date", re.compile(r"\b(?:no|not) later than\s+", _I)),
}


MAILED = ("letters", "transmittal", "affidavit_of_mailing", "certificate_of_mailing")
# A proof leaves the day of the act blank for the person who signs it; it prints the last lawful
# day when the law sets one, and nothing to check when the law sets none.
PROOFS = ("certificate_of_posting", "affidavit_of_mailing", "certificate_of_mailing")
SUNDAY = 6


def own_dates(kind: str, pages: list[PageText], years: tuple[int, ...]) -> list[date]:
    """The days a document says it goes out (its letter date, publication or posting dates)."""
    how = OWN_DATE[kind][1]
    found: list[date] = []
    for page in pages:
        if how != "line":
            found += [x.day for text in page.blocks for x in _stated(how, text, years)]
        elif kind not in ("letters", "transmittal") or page.letter_start:
            for text in page.lines:
                found += [x.day for x in _stated(how, text, years)]
                if found and kind != "affidavit_of_publication":
                    break  # a letter's date is its first date line
    return found


def _stated(how: str | re.Pattern[str], text: str, years: tuple[int, ...]) -> list[dates.Mention]:
    """The dates `text` states as the day a document goes out, where they are in `text`.

    "line": a line that is only a date; a pattern: the date right after it (after "Publication
    dates:", every date up to the end of the sentence).
    """
    if how == "line":
        m = _DATE_ONLY.match(text.strip())
        mentions = dates.find(m.group("date"), years) if m else []
        if m and len(mentions) == 1 and mentions[0].end == len(m.group("date")):
            return dates.find(text, years)[:1] if mentions[0].start == 0 else []
        return []
    assert isinstance(how, re.Pattern)
    out = []
    for m in how.finditer(text):
        rest = text[m.end() :]
        if how.pattern.endswith("s?:"):
            rest = re.split(r"\.(?:\s|$)", rest, maxsplit=1)[0]
            out += [replace(x, start=m.end() + x.start) for x in dates.find(rest, years)]
        else:
            first = dates.find(rest[:60], years)
            if first and first[0].start == 0:
                out.append(replace(first[0], start=m.end()))
    return out


def _own_starts(kind: str, text: str, years: tuple[int, ...]) -> set[int]:
    """Where, in one block of text, the document states the day it goes out."""
    how = OWN_DATE[kind][1]
    if how != "line":
        return {x.start for x in _stated(how, text, years)}
    starts, offset = set(), 0
    for line in text.splitlines(keepends=True):
        starts |= {offset + x.start for x in _stated(how, line, years)}
        offset += len(line)
    return starts


def date_hits(kind: str, pages: list[PageText], hearings: dict[date, str]) -> list[Hit]:
    """Every hearing the document names is after the day it goes out.

    A hearing is one the plan names (schedule.json); a date in the text that is one of those
    days names that hearing. The document's own date is the latest it states (see OWN_DATE).
    Mail is dated on a day the post office takes it: never a Sunday.
    """
    if kind not in OWN_DATE or not hearings:
        return []
    years = tuple(sorted({d.year for d in hearings}))
    own = own_dates(kind, pages, years)
    name = OWN_DATE[kind][0]
    if not own and kind in PROOFS:
        return []
    if not own:
        return [Hit(1, "dates", f"no {name} found: the day it goes out is not stated", "no date")]
    goes_out = max(own)
    out = []
    if kind in MAILED:
        for sunday in sorted({d for d in own if d.weekday() == SUNDAY}):
            out.append(
                Hit(
                    1,
                    "dates",
                    f"its {name} {dates.long_date(sunday)} is a Sunday, when no mail is taken",
                    f"sunday {sunday}",
                )
            )
    for page in pages:
        for text in page.blocks:
            own_here = _own_starts(kind, text, years)
            for mention in dates.find(text, years):
                body = hearings.get(mention.day)
                # The document's own date is not a hearing it names, even when it falls on the
                # day of another hearing of the case (a council sign posted on the day the
                # planning commission meets).
                if body is not None and mention.day <= goes_out and mention.start not in own_here:
                    out.append(
                        Hit(
                            page.number,
                            "dates",
                            f"names the {body} hearing of {dates.long_date(mention.day)}, which is"
                            f" {'that same day' if mention.day == goes_out else 'past'} on its"
                            f" {name} {dates.long_date(goes_out)}",
                            f"{mention.day}",
                        )
                    )
    return out
