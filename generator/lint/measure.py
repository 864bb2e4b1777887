"""Measurements of printed geometry: a sign's letter heights, a display ad's page size.

Letter height is the height of a capital: the font size times the font's capital-height ratio,
measured from the outline of "H" in the installed font file (a PDF's /CapHeight is the bounding
box top). The display ad's page is its media box.
"""

from __future__ import annotations

import re
from typing import Any

from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.lint import when
from generator.prepare import Prepared
from generator.render import fonts

POINTS = 72


def _lines(path: Any) -> list[tuple[str, list[float]]]:
    """The text lines of page 1 and each character's capital height in inches.

    One glyph may stand for several characters (the "fi" ligature, an unmapped glyph read as
    "(cid:12)"): each of them gets the glyph's height, so a line's heights match its text.
    """
    import pdfplumber  # a sign is one page: the careful reader is fast enough

    rows: dict[float, list[dict]] = {}
    try:
        with pdfplumber.open(path, pages=[1]) as pdf:
            if pdf.pages:
                page = pdf.pages[0]
                # Read as drawn, not as turned for display (/Rotate), so its lines run across.
                page.page_obj.rotate = 0
                for char in page.chars:
                    rows.setdefault(round(char["top"], 0), []).append(char)
    except Exception as exc:  # pdfminer raises anything on a damaged file; pdfium read it
        raise UserError(
            Problem(str(path), None, None, "", f"cannot measure the PDF ({exc!r})")
        ) from None
    out = []
    for _top, chars in sorted(rows.items()):
        chars.sort(key=lambda c: c["x0"])
        text, heights = "", []
        for c in chars:
            cap = c["size"] * fonts.cap_height_ratio(fonts.file_of_pdf_font(c["fontname"]))
            text += c["text"]
            heights += [cap / POINTS] * len(c["text"])
        out.append((text, heights))
    return out


def sign_findings(target: Any, prepared: Prepared | None) -> list[Finding]:
    """NL006: each item the law wants legible is in capitals at least as tall as it needs."""
    from generator.documents.sign import district_code, legibility

    case = prepared.case if prepared is not None else None
    hearing = target.hearing
    need = legibility(target.formats, case.sign if case is not None else None)
    if not need.distance_from_law:
        return []  # no distance in the law: nothing to measure against
    lines = _lines(target.path)
    year = hearing.date.year if hearing else None
    # What each legible item looks like on a sign: (what to call it, how to find its spans).
    items: list[tuple[str, Any]] = []
    if "word_zoning" in need.items:
        items.append(
            ("the word ZONING", lambda text: _spans(re.finditer(r"\bZONING\b", text, re.I)))
        )
    for item, field in (
        ("present_district", "current_district"),
        ("proposed_district", "proposed_district"),
    ):
        if item in need.items and case is not None:
            for code in sorted(
                {district_code(getattr(p, field)) for p in case.parcels if getattr(p, field)}
            ):
                pattern = re.escape(code)
                items.append(
                    (
                        f"the {item.split('_')[0]} district {code}",
                        lambda text, pattern=pattern: _spans(re.finditer(pattern, text, re.I)),
                    )
                )
    if "hearing_date_time" in need.items:
        items.append(
            (
                "the hearing date",
                lambda text: _spans(
                    d
                    for d in when.find_dates(text, default_year=year)
                    if hearing is None or d.day == hearing.date
                ),
            )
        )
        items.append(
            (
                "the hearing time",
                lambda text: _spans(
                    t
                    for t in when.find_times(text)
                    if hearing is None or when.same_time(t.at, hearing.start_time)
                ),
            )
        )
    out = []
    for what, find in items:
        tallest = max(
            (
                _height(heights, text, start, end)
                for text, heights in lines
                for start, end in find(text)
            ),
            default=None,
        )
        if tallest is None or tallest < need.cap_in - 1e-3:
            said = "is not on the sign" if tallest is None else f"is {tallest:.2f} in tall"
            out.append(
                Finding(
                    "NL006",
                    f"{what} {said}; legible from {need.distance_ft:g} ft needs {need.cap_in:.2f} in"
                    " capitals",
                    rule=need.rules[0] if need.rules else None,
                    citation=need.citation or None,
                    document=target.path.name,
                )
            )
    return out


def _spans(matches: Any) -> list[tuple[int, int]]:
    """The (start, end) of regular-expression matches or date and time mentions."""
    return [(m.start(), m.end()) if callable(m.start) else (m.start, m.end) for m in matches]


def _height(heights: list[float], text: str, start: int, end: int) -> float:
    """The smallest capital of the letters in `text[start:end]` (spaces do not count)."""
    return min(h for h, ch in zip(heights[start:end], text[start:end], strict=True) if ch.strip())


def display_ad_findings(target: Any, prepared: Prepared | None) -> list[Finding]:
    """NL007: the ad's page reaches the pack's fraction of the newspaper's page, columns and depth."""
    from generator.documents.display_ad import column_width

    law = [
        b
        for b in target.formats
        if b.params.min_page_fraction or b.params.min_columns or b.params.min_depth_in
    ]
    profile = prepared.case_file.newspaper_profile if prepared is not None else None
    if not law or profile is None:
        return []
    fraction = max(b.params.min_page_fraction or 0.0 for b in law)
    least_columns = max(b.params.min_columns or 1 for b in law)
    least_depth = max(b.params.min_depth_in or 0.0 for b in law)
    rule, citation = law[0].rule.id, "; ".join(dict.fromkeys(c for b in law for c in b.citations))
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(target.path))
    try:
        # The ad is the trim box: the page also carries the size note printed below the ad.
        left, bottom, right, top = pdf[0].get_trimbox()
        width, depth = (right - left) / POINTS, (top - bottom) / POINTS
    finally:
        pdf.close()
    page = profile.page
    columns = next(
        (k for k in range(1, page.columns + 1) if column_width(page, k) >= width - 0.01),
        page.columns,
    )
    type_width, type_depth = page.type_area_in
    area = width * depth / (type_width * type_depth)
    column_inches = columns * depth / (page.columns * type_depth)
    short = []
    if min(area, column_inches) < fraction - 1e-9:
        short.append(
            f"{area:.3f} of the page's area and {column_inches:.3f} of its column-inches; the law"
            f" needs {fraction:g} of both"
        )
    # A k-column ad is k columns and k-1 gutters wide: narrower is fewer columns, whatever it says.
    wide = width >= column_width(page, least_columns) - 0.01
    if not wide or depth < least_depth - 0.01:
        short.append(f"the law needs at least {least_columns} columns × {least_depth:g} in")
    if not short:
        return []
    return [
        Finding(
            "NL007",
            f"the ad is {width:.2f} × {depth:.2f} in ({columns} col): {'; '.join(short)}",
            rule=rule,
            citation=citation,
            document=target.path.name,
        )
    ]
