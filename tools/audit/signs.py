"""A sign's capitals, measured in ink as the sign prints.

The sign's first page is rendered at 72 dpi (a pixel a point) with pdftoppm; each capital or
figure of an item the law wants legible is measured from its foot to its top: the unbroken run
of inked rows, within the glyph's columns, that stands on its baseline. Capitals with flat tops and bottoms (E, H, N, Z, 1, 4, 7…) measure the
cap height exactly; round ones (O, S, 0…) overshoot it a little, so an item's height is the
median of its flat glyphs where it has any. A pixel is a point: 4 in is 288 px.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import tempfile
from datetime import date
from pathlib import Path

import numpy as np
from PIL import Image

from tools.audit import dates
from tools.audit.checks import Hit
from tools.audit.packet import SignNeed
from tools.audit.read import Glyph, Page

DPI = 72
FLAT = set("BDEFHIKLMNPRTXZ147")
SLACK = 0.99  # a pixel of antialiasing at either end of a 4 in capital is 0.7 %
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\b\.?|\bnoon\b", re.IGNORECASE)
_PHONE_OR_WEB = re.compile(
    r"\(?\b\d{3}\)?[\s.\-]?\d{3}[\s.\-]\d{4}\b"
    r"|\b(?:https?://)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:gov|com|org|net|us|info)\b",
    re.IGNORECASE,
)


def _render(path: Path) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sign"
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-gray", "-f", "1", "-l", "1", "-singlefile", path, out],
            check=True,
        )
        with Image.open(out.with_suffix(".pgm")) as image:
            return np.asarray(image.convert("L"))


def _ink_height(ink: np.ndarray, g: Glyph) -> float | None:
    """The height of a glyph's ink in inches.

    It is the unbroken run of inked rows, within the glyph's columns (inset from its
    neighbours), that stands on its baseline.

    A capital's outline is connected from its foot to its top, so the run ends at its top; the
    line above, whose letters may reach into this glyph's em box, is past a gap of blank rows.
    """
    inset = (g.x1 - g.x0) * 0.1
    c0, c1 = round(g.x0 + inset), max(round(g.x1 - inset), round(g.x0 + inset) + 1)
    r0 = max(0, round(g.baseline - 1.2 * g.size))
    r1 = min(ink.shape[0], round(g.baseline + 0.3 * g.size) + 1)
    rows = ink[r0:r1, c0:c1].any(axis=1)
    foot = round(g.baseline) - r0
    near = [
        r
        for r in range(foot + 2, max(foot - round(0.3 * g.size), 0) - 1, -1)
        if 0 <= r < len(rows) and rows[r]
    ]
    if not near:
        return None
    top = bottom = near[0]
    while top > 0 and rows[top - 1]:
        top -= 1
    while bottom + 1 < len(rows) and rows[bottom + 1]:
        bottom += 1
    return (bottom - top + 1) / DPI


def _height(ink: np.ndarray, glyphs: list[Glyph | None]) -> float | None:
    caps = [g for g in glyphs if g is not None and (g.text.isupper() or g.text.isdigit())]
    flat = [g for g in caps if g.text in FLAT] or caps
    heights = [h for h in (_ink_height(ink, g) for g in flat) if h is not None]
    return statistics.median(heights) if heights else None


def _items(
    hearings: dict[date, str], districts: dict[str, list[list[str]]]
) -> list[tuple[str, object]]:
    """What must be legible, each as (what to call it, a finder of its spans in a line)."""

    def regex(pattern: re.Pattern[str]) -> object:
        return lambda text: [(m.start(), m.end()) for m in pattern.finditer(text)]

    items: list[tuple[str, object]] = [
        (
            "the word ZONING or REZONING",
            # or its Spanish, on a Spanish sign: ZONIFICACIÓN, REZONIFICACIÓN
            regex(re.compile(r"\b(?:re)?(?:zoning|zonificaci[oó]n)\b", re.IGNORECASE)),
        )
    ]
    for which, spellings_list in sorted(districts.items(), reverse=True):
        for spellings in spellings_list:
            alternatives = "|".join(
                re.escape(re.sub(r"\s+", " ", s)) for s in sorted(spellings, key=len, reverse=True)
            )
            pattern = re.compile(
                rf"(?<![A-Za-z0-9-])(?:{alternatives})(?![A-Za-z0-9]|-[A-Za-z0-9])", re.IGNORECASE
            )
            items.append((f"the {which} district {spellings[-1]}", regex(pattern)))
    days = {(d.month, d.day) for d in hearings}
    items.append(
        (
            "the hearing date",
            lambda text: [(s, e) for m, d, s, e in dates.month_days(text) if (m, d) in days],
        )
    )
    items.append(("the hearing time", regex(_TIME)))
    items.append(("a phone number or web address", regex(_PHONE_OR_WEB)))
    return items


def sign_hits(
    path: Path,
    page: Page,
    need: SignNeed,
    hearings: dict[date, str],
    districts: dict[str, list[list[str]]],
) -> list[Hit]:
    """Each item the law wants legible is somewhere on the sign in capitals `need.cap_in` tall.

    The items: the word ZONING (or REZONING), the present and the proposed districts of a map
    change, the hearing's date and time, and a phone number or web address to learn more.
    """
    ink = _render(path) < 128
    out = []
    for what, find in _items(hearings, districts):
        found = [
            _height(ink, _spans(line.text, line.glyphs, start, end))
            for line in page.lines
            for start, end in find(re.sub(r"\s*-\s*", "-", line.text))  # type: ignore[operator]
        ]
        tallest = max((h for h in found if h is not None), default=None)
        if tallest is not None and tallest >= need.cap_in * SLACK:
            continue
        if tallest is not None:
            said = f"is {tallest:.2f} in tall"
        elif found:
            said = "is on the sign, but not in capitals or figures"
        else:
            said = "is not on the sign"
        out.append(
            Hit(
                1,
                "sign-capitals",
                f"{what} {said}; legible from {need.distance_ft:g} ft needs capitals"
                f" {need.cap_in:.2f} in tall ({need.source})",
                what,
            )
        )
    return out


def _spans(text: str, glyphs: list[Glyph | None], start: int, end: int) -> list[Glyph | None]:
    """The glyphs of text[start:end], `start` and `end` indexing the text squeezed.

    Squeezed: the spaces around its hyphens removed, so that `C -2` is found as `C-2`.
    """
    kept = [i for i, _ in enumerate(text)]
    squeezed = re.sub(r"\s*-\s*", "-", text)
    if squeezed != text:
        kept, i = [], 0
        for ch in squeezed:
            while text[i] != ch:
                i += 1
            kept.append(i)
            i += 1
    return [glyphs[kept[k]] for k in range(start, end)]
