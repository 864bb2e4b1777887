"""Measurements of printed geometry: a sign's letter heights, a display ad's page size.

Letter height is the height of a capital: the font size times the font's capital-height ratio,
measured from the outline of "H" in the installed font file (a PDF's /CapHeight is the bounding
box top). The display ad's page is its media box.
"""

from __future__ import annotations

import re
from typing import Any

from generator.lint import when
from generator.lint.checks import LintFinding
from generator.render import fonts

POINTS = 72


def _lines(path: Any) -> list[tuple[str, list[float]]]:
    """The text lines of page 1 and each character's capital height in inches."""
    import pdfplumber  # a sign is one page: the careful reader is fast enough

    rows: dict[float, list[dict]] = {}
    with pdfplumber.open(path) as pdf:
        for char in pdf.pages[0].chars:
            rows.setdefault(round(char["top"], 0), []).append(char)
    out = []
    for _top, chars in sorted(rows.items()):
        chars.sort(key=lambda c: c["x0"])
        heights = [
            c["size"] * fonts.cap_height_ratio(fonts.file_of_pdf_font(c["fontname"])) / POINTS
            for c in chars
        ]
        out.append(("".join(c["text"] for c in chars), heights))
    return out


def sign_findings(target: Any, context: Any) -> list[LintFinding]:
    """NL006: each item the law wants legible is in capitals at least as tall as it needs."""
    from generator.signs import _code

    law = [b for b in target.formats if getattr(b.params, "legible_from_ft", None)]
    if not law:
        return []
    distance = max(b.params.legible_from_ft for b in law)
    index = min(b.params.legibility_index_ft_per_in or 25.0 for b in law)
    need = distance / index
    rule, citation = law[0].rule.id, "; ".join(dict.fromkeys(c for b in law for c in b.citations))
    items: dict[str, list[str]] = {"the word ZONING": [r"\bZONING\b"]}
    case, hearing = context.case, target.hearing
    if case is not None:
        for label, field in (("present", "current_district"), ("proposed", "proposed_district")):
            codes = {_code(getattr(p, field)) for p in case.parcels if getattr(p, field)}
            for code in codes:
                items[f"the {label} district {code}"] = [re.escape(code)]
    lines = _lines(target.path)
    out = []
    for item, patterns in items.items():
        best = _tallest(lines, patterns)
        if best is None or best < need - 1e-3:
            said = "is not on the sign" if best is None else f"is {best:.2f} in tall"
            out.append(
                LintFinding(
                    "NL006",
                    f"{item} {said}; legible from {distance:g} ft needs {need:.2f} in capitals",
                    target.path.name,
                    rule,
                    citation,
                )
            )
    # The date and the time of the hearing, in whatever format the sign writes them.
    for what, heights in _moment_heights(lines, hearing).items():
        if heights is None or heights < need - 1e-3:
            said = "is not on the sign" if heights is None else f"is {heights:.2f} in tall"
            out.append(
                LintFinding(
                    "NL006",
                    f"the hearing {what} {said}; legible from {distance:g} ft needs {need:.2f} in"
                    " capitals",
                    target.path.name,
                    rule,
                    citation,
                )
            )
    return out


def _tallest(lines: list[tuple[str, list[float]]], patterns: list[str]) -> float | None:
    """The tallest occurrence of an item: the smallest capital within it, over its occurrences."""
    best = None
    for text, heights in lines:
        for pattern in patterns:
            for m in re.finditer(pattern, text, re.IGNORECASE):
                low = min(
                    h
                    for h, ch in zip(
                        heights[m.start() : m.end()], text[m.start() : m.end()], strict=True
                    )
                    if ch.strip()
                )
                best = low if best is None else max(best, low)
    return best


def _moment_heights(lines: list[tuple[str, list[float]]], hearing: Any) -> dict[str, float | None]:
    """The tallest date and time on the sign (the hearing's, when the case is known)."""
    found: dict[str, float | None] = {"date": None, "time": None}
    year = hearing.date.year if hearing else None
    for text, heights in lines:
        spans = {
            "date": [(d.start, d.end) for d in when.find_dates(text, default_year=year)
                     if hearing is None or d.day == hearing.date],
            "time": [(t.start, t.end) for t in when.find_times(text)
                     if hearing is None or when.same_time(t.at, hearing.start_time)],
        }  # fmt: skip
        for what, pairs in spans.items():
            for start, end in pairs:
                low = min(
                    h
                    for h, ch in zip(heights[start:end], text[start:end], strict=True)
                    if ch.strip()
                )
                current = found[what]
                found[what] = low if current is None else max(current, low)
    return found


def display_ad_findings(target: Any, context: Any) -> list[LintFinding]:
    """NL007: the ad's page reaches the pack's fraction of the newspaper's page."""
    from generator.display_ad import column_width

    law = [b for b in target.formats if getattr(b.params, "min_page_fraction", None)]
    profile = context.cf.newspaper_profile if context.cf is not None else None
    if not law or profile is None:
        return []
    fraction = max(b.params.min_page_fraction for b in law)
    rule, citation = law[0].rule.id, "; ".join(dict.fromkeys(c for b in law for c in b.citations))
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(target.path))
    try:
        width, depth = (x / POINTS for x in pdf[0].get_size())
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
    if min(area, column_inches) >= fraction - 1e-9:
        return []
    return [
        LintFinding(
            "NL007",
            f"the ad is {width:.2f} × {depth:.2f} in ({columns} col): {area:.3f} of the page's area"
            f" and {column_inches:.3f} of its column-inches; the law needs {fraction:g} of both",
            target.path.name,
            rule,
            citation,
        )
    ]
