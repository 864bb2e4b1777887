"""Posted signs at print size, their letters as tall as the law's reading distance needs.

The pack's format rules say from how far the sign must be legible, by which legibility index
(feet of distance per inch of capital height) and which items must be legible. The capital
height is distance ÷ index (100 ft at 25 ft/in: 4 in); the font size follows from the font's
true capital height. Those items are never set smaller: if they do not fit the panel the build
stops and says what does not fit. The rest of the notice is set as large as the panel allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from generator import schedule
from generator.documents.base import Built, DocumentType, File, Output
from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.inputs import CaseFile
from generator.kinds import DocumentKind, Format
from generator.models.case import SignSpec
from generator.models.pack import Channel, FormatParams
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render import context as ctx
from generator.render import fonts, pdf
from generator.render.filters import clock, long_date
from generator.render.templates import Templates
from generator.rules.loader import Binding

DEFAULT_INDEX = 25.0  # ft per inch: USSC / Penn State chart, Helvetica caps (legal-domain.md §4)
# Where the law names no distance ("legible from the street it faces"): a two-lane street with
# its sidewalks. The case can set the real width as `sign.legible_from_ft`.
DEFAULT_DISTANCE_FT = 50.0
DEFAULT_SIZE_IN = (96.0, 48.0)  # the common 4 by 8 ft panel, where neither law nor case sizes it
MARGIN_IN = 1.0
LINE_HEIGHT = 1.05  # capitals only: no descenders to clear
SMALL_CAPS_IN = (2.0, 1.5, 1.25, 1.0, 0.75, 0.625, 0.5, 0.4)  # the rest, largest that fits
KIND = DocumentKind.SIGN


@dataclass(frozen=True)
class Legibility:
    """What the law (or the case, where the law is silent) asks of the sign's letters."""

    distance_ft: float
    index: float
    items: tuple[str, ...]
    size_in: tuple[float, float]
    rules: tuple[str, ...]
    citation: str
    distance_from_law: bool

    @property
    def cap_in(self) -> float:
        """The least capital height, in inches."""
        return self.distance_ft / self.index


def legibility(
    formats: tuple[Binding[FormatParams], ...] | list[Binding[FormatParams]], spec: SignSpec | None
) -> Legibility:
    """Merge a sign's format rules (the strictest binds) with what the case says (`spec`)."""
    law = [b.params for b in formats]
    distances = [p.legible_from_ft for p in law if p.legible_from_ft]
    indexes = [p.legibility_index_ft_per_in for p in law if p.legibility_index_ft_per_in]
    sizes = [p.size_in for p in law if p.size_in]
    items: list[str] = []
    for p in law:
        items += [str(i) for i in p.legible_items if str(i) not in items]
    case_distance = spec.legible_from_ft if spec else None
    distance = max([*distances, case_distance or 0.0]) or DEFAULT_DISTANCE_FT
    size = sizes[0] if sizes else (spec.size_in if spec and spec.size_in else None)
    return Legibility(
        distance_ft=distance,
        index=min(indexes) if indexes else DEFAULT_INDEX,
        items=tuple(items) or ("hearing_date_time",),
        size_in=(size[0], size[1]) if size else DEFAULT_SIZE_IN,
        rules=tuple(i for b in formats for i in b.ids),
        citation="; ".join(dict.fromkeys(c for b in formats for c in b.citations)),
        distance_from_law=bool(distances),
    )


def signs(prepared: Prepared, tpl: Templates, docs: list[DocumentPlan], suffix: str = "") -> Built:
    """One PDF at print size per sign (or poster, `suffix` "-poster") in `docs`.

    Raises UserError when the law's letters cannot fit the panel: they are never set smaller.
    """
    made = Built()
    for doc in docs:
        need = legibility(doc.formats, prepared.case.sign)
        data = _make(prepared, tpl, doc, need, f"{doc.name}{suffix}")
        name = f"{doc.name}{suffix}.pdf"
        output = Output(doc.kind, Format.PDF, name, data, doc.notice_ids + need.rules)
        findings: tuple[Finding, ...] = ()
        if not need.distance_from_law:
            findings = (
                Finding(
                    "SIGN001",
                    f"the law names no reading distance for the {doc.name}{suffix}; its letters are"
                    f" sized to be legible from {need.distance_ft:g} ft ({need.cap_in:.2f} in"
                    " capitals): set `sign.legible_from_ft` to the width of the street it faces",
                    rule=need.rules[0] if need.rules else doc.notices[0].rule.id,
                    citation=need.citation or "; ".join(dict.fromkeys(doc.notices[0].citations)),
                    document=name,
                ),
            )
        made += Built((output,), findings)
    return made


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The signs to post on the land."""
    return signs(prepared, tpl, prepared.plan.of(Channel.SIGN))


def _make(
    prepared: Prepared, tpl: Templates, doc: DocumentPlan, need: Legibility, name: str
) -> bytes:
    """The sign's PDF: legible lines at their height, the rest as large as still fits."""
    cf, the_map = prepared.case_file, prepared.map
    context = ctx.build(prepared.plan, doc, "")
    if "map" not in doc.topics():
        context["map"] = None  # a map on a sign is read by no one at 100 ft
    context["sign"] = _sign_context(prepared, doc, need)
    cap_ratio = fonts.cap_height_ratio(fonts.font_file(f"{fonts.SIGN_FAMILY}:bold"))
    context["sign"]["legible_pt"] = _points(need.cap_in, cap_ratio)
    files = {the_map.name: the_map.data} if the_map and context["map"] else {}

    def attempt(small: float, rest: bool = True) -> Any:
        """The laid-out sign with the rest in `small` capitals, or None if it overflows."""
        context["sign"]["small_pt"] = _points(small, cap_ratio)
        context["sign"]["rest"] = rest
        laid = pdf.lay_out(tpl.render("sign.html.j2", context), files, tpl.path)
        trouble = _overflow(laid)
        if trouble and trouble[0] == "legible":
            raise UserError(_too_big(cf, name, need, trouble[1]))
        return None if trouble else laid

    # Fitting only gets easier as the rest gets smaller: bisect for the largest that fits.
    ladder = [s for s in SMALL_CAPS_IN if s < need.cap_in]
    best, low, high = None, 0, len(ladder) - 1
    while low <= high:
        middle = (low + high) // 2
        laid = attempt(ladder[middle])
        if laid is None:
            low = middle + 1
        else:
            best, high = laid, middle - 1
    if best is None:
        alone = attempt(ladder[-1], rest=False) if ladder else None
        longest = max(context["sign"]["lines"], key=lambda line: len(line["text"]))
        raise UserError(_too_big(cf, name, need, None if alone else longest["text"].upper()))
    return pdf.finish(best)


def _points(cap_in: float, cap_ratio: float) -> float:
    """The font size, rounded up to 0.1 pt, whose capitals are `cap_in` inches tall."""
    return math.ceil(cap_in * 72 / cap_ratio * 10) / 10


def _sign_context(prepared: Prepared, doc: DocumentPlan, need: Legibility) -> dict[str, Any]:
    case, hearing = prepared.case, doc.hearing
    present = list(dict.fromkeys(p.current_district for p in case.parcels if p.current_district))
    proposed = list(dict.fromkeys(p.proposed_district for p in case.parcels if p.proposed_district))
    # The items the law wants legible, in the order a passer-by reads them; sign.html.j2 words them.
    lines: list[tuple[str, str]] = []
    items = set(need.items)
    lines.append(("headline", "word_zoning" if "word_zoning" in items else ""))
    if items & {"present_district", "district_change"} and present:
        lines.append(("present_district", ", ".join(map(district_code, present))))
    if items & {"proposed_district", "district_change"} and proposed:
        lines.append(("proposed_district", ", ".join(map(district_code, proposed))))
    if items & {"hearing_date_time", "hearing_when_where"}:
        day = hearing.date
        lines.append(
            ("hearing_date_time", f"{day:%B} {day.day}, {day.year}, {clock(hearing.start_time)}")
        )
    if "hearing_when_where" in items:
        lines.append(("hearing_place", hearing.place))
    if "hearing_body" in items:
        lines.append(("hearing_body", hearing.body_name))
    if "proposed_use" in items and case.amendment.proposed_use:
        lines.append(("proposed_use", case.amendment.proposed_use))
    earliest, latest = schedule.window_of(list(prepared.deadlines), doc.notice_ids, hearing)
    width, height = need.size_in
    return {
        "width_in": width,
        "height_in": height,
        "margin_in": MARGIN_IN,
        "line_height": LINE_HEIGHT,
        "family": fonts.SIGN_FAMILY,
        "lines": [{"item": item, "text": text} for item, text in lines],
        "cap_in": need.cap_in,
        "index": need.index,
        "distance_ft": need.distance_ft,
        "citation": need.citation,
        "post_by": long_date(latest) if latest else None,
        "post_from": long_date(earliest) if earliest else None,
        "remove_after": long_date(hearing.date),
    }


def district_code(district: str) -> str:
    """The district's classification as zoning maps print it: `R1-6` of `R1-6 (Single-Family)`."""
    return district.split(" (", 1)[0].strip()


def _overflow(document: Any) -> tuple[str, str] | None:
    """What does not fit: ("legible" | "text", the words), or None when all fits on one page."""
    from weasyprint.formatting_structure import boxes

    if len(document.pages) > 1:
        return ("text", "")
    page = document.pages[0]._page_box
    right = page.content_box_x() + page.width + 0.5  # half a CSS pixel of rounding

    def walk(box: Any, legible: bool) -> tuple[str, str] | None:
        element = getattr(box, "element", None)
        if element is not None and "legible" in (element.get("class") or "").split():
            legible = True
        if isinstance(box, boxes.TextBox) and box.position_x + box.width > right:
            return ("legible" if legible else "text", box.text)
        for child in getattr(box, "children", None) or []:
            found = walk(child, legible)
            if found:
                return found
        return None

    return walk(page, False)


def _too_big(cf: CaseFile, name: str, need: Legibility, words: str | None) -> Problem:
    """The message of a sign that cannot carry its text at the legal letter height."""
    width, height = need.size_in
    why = (
        f"{words.strip()!r} does not fit the {width:g} × {height:g} in panel in {need.cap_in:.2f} in"
        " capitals"
        if words
        else f"the notice does not fit a {width:g} × {height:g} in panel with its required items"
        f" in {need.cap_in:.2f} in capitals"
    )
    law = f" ({need.citation})" if need.citation else ""
    message = (
        f"the {name} cannot be made: {why}, the height that makes it legible from"
        f" {need.distance_ft:g} ft{law}; letters are never set smaller than that. Shorten the"
        " text (district names, place) or use a larger sign (`sign.size_in`)"
    )
    field = ("sign",)
    for i, parcel in enumerate(cf.case.parcels):
        for name in ("current_district", "proposed_district"):
            value = getattr(parcel, name) or ""
            code, said = district_code(value).upper(), (words or "").strip().upper()
            if value and said and (code in said or said in code):
                field = ("parcels", i, name)
    return cf.problem(field, message)


DOCUMENT = DocumentType(
    KIND,
    "The sign posted on the land, at print size, its letters as tall as the reading distance needs.",
    (File("{name}.pdf", Format.PDF, KIND),),
    ("case", "plan", "schedule", "map"),
    lambda p: bool(p.plan.of(Channel.SIGN)),
    build,
)
