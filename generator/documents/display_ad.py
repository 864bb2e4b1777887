"""The display ad: a PDF whose page is exactly the ad, sized against the paper's own page.

"One-eighth of a full page" (A.R.S. § 9-462.04(A)(5)(c)) and "one-half of a newspaper page"
(G.S. 160D-602(b)) are measured on the page of the paper actually used, from its rate card
(`data/newspapers/<id>.yaml`). An ad reaches a fraction only if both its area and its
column-inches do: a k-column ad is k columns and k-1 gutters wide, so a narrow ad reaches the
column-inches before the area (legal-domain.md §5). Depths are whole agate lines (1/14 in),
the unit papers sell display space in.

The ad's size and the law it meets are printed for the ad desk beneath the ad, outside its border:
the page is deeper than the ad by a slug, and the PDF's TrimBox is the ad itself, so a paper
that places the PDF by its trim (as ad desks do) prints the ad alone, at its size.

The ad is print-ready: it holds no RGB image (a clerk's color map is turned to gray before it
is embedded, and the PDF is checked afterwards), and no clock is read, so the same input gives
the same bytes.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator import schedule
from generator.documents.base import Built, DocumentType, File, Output
from generator.findings import Finding
from generator.kinds import DocumentKind, Format
from generator.models.newspaper import Page
from generator.models.pack import Channel, ClauseTopic
from generator.plan import DocumentPlan, MapInfo
from generator.prepare import Prepared
from generator.render import context as ctx
from generator.render import pdf
from generator.render.templates import Templates

AGATE_LINES_PER_IN = 14
_EPS = 1e-9  # float slack: 0.5 × 21 in must not round up to an extra agate line
DEFAULT_TYPE_PT = 9.0  # when the rate card gives no news type size
RULE_PT = 2.0  # the ad's border
INSET_IN = 0.09  # white space between the border and the copy
SLUG_IN = 0.5  # below the ad, outside its trim: the size footnote for the ad desk
GRAY_MAP = "map-gray.png"
KIND = DocumentKind.DISPLAY_AD


@dataclass(frozen=True)
class AdSize:
    """A display ad's shape on a paper's page, and how much of the page it covers."""

    columns: int
    width_in: float
    depth_in: float
    page_width_in: float  # the type area, not the trimmed sheet
    page_depth_in: float
    page_columns: int
    required: float  # the fraction of the page the law asks for

    @property
    def area_sq_in(self) -> float:
        """The ad's area."""
        return self.width_in * self.depth_in

    @property
    def column_inches(self) -> float:
        """The ad's column-inches (columns × depth), as papers bill it."""
        return self.columns * self.depth_in

    @property
    def page_area(self) -> float:
        """The area of the page's type area."""
        return self.page_width_in * self.page_depth_in

    @property
    def page_column_inches(self) -> float:
        """The column-inches of a full page."""
        return self.page_columns * self.page_depth_in

    @property
    def fraction(self) -> float:
        """The fraction of the page reached: the lesser of the area and column-inch shares."""
        return min(self.area_sq_in / self.page_area, self.column_inches / self.page_column_inches)

    @property
    def agate_lines(self) -> float:
        """The depth in agate lines."""
        return self.depth_in * AGATE_LINES_PER_IN


def column_width(page: Page, columns: int) -> float:
    """The width of a `columns`-column ad: the columns and the gutters between them."""
    return columns * page.column_width_in + (columns - 1) * page.gutter_in


@dataclass(frozen=True)
class Minimum:
    """What the law asks of the ad besides a share of the page: columns, depth, headline type."""

    columns: int = 1
    depth_in: float = 0.0
    headline_pt: float = 0.0


def size(
    page: Page,
    fraction: float,
    columns: int | None = None,
    at_least_in: float = 0,
    least: Minimum = Minimum(),
) -> AdSize:
    """The smallest ad reaching `fraction` of `page` (of `columns` columns if given), ≥ `at_least_in` deep.

    `least` adds the law's own floor: so many columns wide, so many inches deep.
    """
    if not 0 <= fraction <= 1:
        raise ValueError(f"a page fraction is between 0 and 1, not {fraction}")
    at_least_in = max(at_least_in, least.depth_in)
    if columns is not None:
        if not max(1, least.columns) <= columns <= page.columns:
            raise ValueError(
                f"the ad may be {max(1, least.columns)} to {page.columns} columns, not {columns}"
            )
        return _shape(page, fraction, columns, at_least_in)
    # Default shape, as rate cards sell the standard units (1/8 page = half the width × a quarter
    # of the depth, 1/2 page = the full width × half the depth): at least half the page's
    # columns, so it reads as a display ad and not a legal column; the fewest such columns whose
    # depth is at most half the page's, so it sits in the top or bottom half like those units;
    # failing that, the fewest columns on which the fraction fits at all.
    fits = []
    for k in range(max(math.ceil(page.columns / 2), least.columns), page.columns + 1):
        try:
            fits.append(_shape(page, fraction, k, at_least_in))
        except ValueError:
            continue
    if not fits:
        raise ValueError(
            f"no ad of {math.ceil(page.columns / 2)} to {page.columns} columns and at least"
            f" {at_least_in:g} in deep reaches {fraction:g} of a {_inches(page.type_area_in[0])}"
            f" × {_inches(page.type_area_in[1])} in page"
        )
    half = math.ceil(page.type_area_in[1] / 2 * AGATE_LINES_PER_IN - 1e-6) / AGATE_LINES_PER_IN
    half_deep = [s for s in fits if s.depth_in <= half + _EPS]
    return (half_deep or fits)[0]


def _shape(page: Page, fraction: float, columns: int, at_least_in: float) -> AdSize:
    """The shallowest `columns`-column ad reaching `fraction`, in whole agate lines."""
    type_width, type_depth = page.type_area_in
    width = column_width(page, columns)
    need = max(
        fraction * type_width * type_depth / width,  # the area
        fraction * page.columns * type_depth / columns,  # the column-inches
        at_least_in,
    )
    if need > type_depth + _EPS:
        raise ValueError(
            f"{fraction:g} of the page needs {need:.2f} in on {columns} columns; the page is"
            f" {_inches(type_depth)} in deep"
        )
    lines = max(1, math.ceil(need * AGATE_LINES_PER_IN - 1e-6))
    # A type depth that is not a whole number of agate lines caps the last line at the page.
    depth = min(lines / AGATE_LINES_PER_IN, type_depth)
    return AdSize(columns, width, depth, type_width, type_depth, page.columns, fraction)


def numbers(ad: AdSize) -> dict[str, str]:
    """The ad's geometry as printed: sizes to the hundredth, the law's share as a fraction."""
    share = Fraction(ad.required).limit_denominator(64) if ad.required else None
    return {
        "columns": str(ad.columns),
        "width": f"{ad.width_in:.2f}",
        "depth": f"{ad.depth_in:.2f}",
        "area": f"{ad.area_sq_in:.1f}",
        "column_inches": f"{ad.column_inches:.1f}",
        "share": str(share) if share else "",
        "page_width": _inches(ad.page_width_in),
        "page_depth": _inches(ad.page_depth_in),
        "page_columns": str(ad.page_columns),
        "fraction": f"{ad.fraction:.3f}",
    }


def describe(ad: AdSize) -> str:
    """The geometry in one line, for the ad desk and a lawyer (the AD004 finding)."""
    n = numbers(ad)
    reached = f"≥ {n['share']} of" if n["share"] else "on"
    return (
        f"{n['columns']} col × {n['depth']} in ({n['width']} × {n['depth']} in) = {n['area']} sq"
        f" in, {n['column_inches']} col-in: {reached} the {n['page_width']} ×"
        f" {n['page_depth']} in, {n['page_columns']}-column page ({n['fraction']} of it)"
    )


def _inches(x: float) -> str:
    """Inches with at most two decimals and no trailing zeros: 11.94, 21, 10.5."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def grayscale_map(the_map: MapInfo) -> tuple[str, bytes]:
    """The map as a file fit for newsprint: (name, data) with no color image in it."""
    from PIL import Image  # with matplotlib; only when an ad carries a map

    is_svg = the_map.name.endswith(".svg")
    if is_svg and b"<image" not in the_map.data:
        return the_map.name, the_map.data  # vector only: WeasyPrint writes no image from it
    raw = the_map.raster if is_svg else the_map.data
    if raw is None:
        return the_map.name, the_map.data  # an SVG with embedded images: the PDF check reports it
    image = Image.open(io.BytesIO(raw))
    image.load()
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        # Transparent parts would turn black in gray: lay the map on white paper first.
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        paper.alpha_composite(rgba)
        image = paper
    out = io.BytesIO()
    image.convert("L").save(out, format="PNG")  # Pillow writes no dates: the same bytes each time
    return GRAY_MAP, out.getvalue()


def trimmed(data: bytes, ad: AdSize) -> bytes:
    """The PDF with its TrimBox (and BleedBox: the ad has no bleed) on the ad, above the slug."""
    import pikepdf

    pt = 72
    trim = [0, SLUG_IN * pt, ad.width_in * pt, (SLUG_IN + ad.depth_in) * pt]
    with pikepdf.open(io.BytesIO(data)) as doc:
        for page in doc.pages:
            page.obj.TrimBox = page.obj.BleedBox = pikepdf.Array(trim)
        out = io.BytesIO()
        doc.save(out, deterministic_id=True)  # the same input gives the same bytes
    return out.getvalue()


def color_images(data: bytes) -> list[str]:
    """The color spaces of every image in a PDF that is not gray (empty when print-safe)."""
    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(data)) as doc:
        for obj in doc.objects:
            if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") != "/Image":
                continue
            space = obj.get("/ColorSpace")
            if obj.get("/ImageMask") or _gray(space):
                continue
            found.append(str(space))
    return found


def _gray(space: Any) -> bool:
    """Whether a PDF color space is DeviceGray, or indexed over it."""
    import pikepdf

    if space == pikepdf.Name.DeviceGray:
        return True
    if isinstance(space, pikepdf.Array) and len(space) >= 2:
        return space[0] == pikepdf.Name.Indexed and space[1] == pikepdf.Name.DeviceGray
    return False


def fit(
    render: Callable[[AdSize], Any], page: Page, fraction: float, least: Minimum = Minimum()
) -> tuple[AdSize, Any] | None:
    """The smallest ad reaching `fraction` (and `least`) whose copy fits on one page, laid out; None if none does.

    `render` lays the ad out at a size (a WeasyPrint document): pages are counted, not written.
    """
    size = functools.partial(_sized, least=least)
    first = size(page, fraction)
    type_depth = page.type_area_in[1]
    data = render(first)
    if len(data.pages) == 1:
        return first, data
    whole = size(page, fraction, page.columns, at_least_in=type_depth)
    whole_pdf = render(whole)
    if len(whole_pdf.pages) > 1:
        return None  # not even the full page holds the copy
    # Deeper first, as the law's minimum shape is what the ad desk expects; wider only when a
    # column of the full page's depth cannot hold the copy.
    for columns in range(first.columns, page.columns + 1):
        try:
            low = size(page, fraction, columns)
        except ValueError:
            continue
        if columns > first.columns:
            data = render(low)
            if len(data.pages) == 1:
                return low, data
        full = size(page, fraction, columns, at_least_in=type_depth)
        best = (full, whole_pdf if columns == page.columns else render(full))
        if len(best[1].pages) > 1:
            continue
        # Bisect on agate lines: `short` lines overflow, `long` lines fit.
        short = round(low.agate_lines)
        long = math.ceil(full.agate_lines - 1e-6)
        while long - short > 1:
            mid = (short + long) // 2
            ad = size(page, fraction, columns, at_least_in=mid / AGATE_LINES_PER_IN)
            data = render(ad)
            if len(data.pages) == 1:
                long, best = mid, (ad, data)
            else:
                short = mid
        return best
    return None


def _sized(
    page: Page,
    fraction: float,
    columns: int | None = None,
    at_least_in: float = 0,
    *,
    least: Minimum,
) -> AdSize:
    return size(page, fraction, columns, at_least_in, least)


def minimum(doc: DocumentPlan) -> Minimum:
    """The strictest columns, depth and headline type the ad's format rules ask for."""
    law = [b.params for b in doc.formats]
    return Minimum(
        columns=max((p.min_columns or 1 for p in law), default=1),
        depth_in=max((p.min_depth_in or 0.0 for p in law), default=0.0),
        headline_pt=max((p.headline_min_pt or 0.0 for p in law), default=0.0),
    )


def shows_map(prepared: Prepared, doc: DocumentPlan) -> bool:
    """Whether the ad carries the map: its own clauses require one, or the pack's notices do."""
    if prepared.map is None:
        return False
    own = any(b.params.topic == ClauseTopic.MAP for b in doc.clauses)
    return own or prepared.plan.needs_map


def build(prepared: Prepared, tpl: Templates) -> Built:
    """One PDF per planned display ad, its page the ad's exact size."""
    made = Built()
    for doc in prepared.plan.of(Channel.DISPLAY_AD):
        made += _one(prepared, tpl, doc)
    return made


def _one(prepared: Prepared, tpl: Templates, doc: DocumentPlan) -> Built:
    notice_ids = doc.notice_ids
    format_ids = tuple(dict.fromkeys(i for b in doc.formats for i in b.ids))
    sized = [b for b in doc.formats if b.params.min_page_fraction]
    fraction = max((b.params.min_page_fraction or 0.0 for b in sized), default=0.0)
    binding = next((b for b in sized if b.params.min_page_fraction == fraction), None)
    least = minimum(doc)
    shaped = [
        b
        for b in doc.formats
        if b.params.min_columns or b.params.min_depth_in or b.params.headline_min_pt
    ]
    sized += [b for b in shaped if b not in sized]
    binding = binding or (shaped[0] if shaped else None)
    rule = binding.rule.id if binding else notice_ids[0]
    citation = "; ".join(dict.fromkeys(c for b in (sized or doc.notices) for c in b.citations))
    profile = prepared.case_file.newspaper_profile
    if profile is None:
        return Built(
            findings=(
                Finding(
                    "AD002",
                    "the display ad is sized against the newspaper's page, but the case names no"
                    " newspaper profile: add `newspaper.profile` (the id of a file in"
                    " data/newspapers/ with the paper's page from its rate card)",
                    rule=rule,
                    citation=citation,
                    document=doc.name,
                ),
            )
        )
    context = ctx.build(prepared.plan, doc, "")
    context["publication_dates"] = schedule.issues_of(
        list(prepared.deadlines), notice_ids, doc.hearing
    )
    files: dict[str, bytes] = {}
    context["headline"] = next((b.params.headline for b in doc.formats if b.params.headline), None)
    context["map"] = None  # the shared body prints any map it is given
    the_map = prepared.map
    if the_map and shows_map(prepared, doc):
        name, data = grayscale_map(the_map)
        files[name] = data
        context["map"] = {
            "src": name,
            "files": name,
            "caption": the_map.caption,
            "alt": the_map.alt,
        }
    type_pt = profile.page.news_type_pt or DEFAULT_TYPE_PT
    case = prepared.case
    paper = (case.newspaper.name if case.newspaper else None) or profile.name
    render = functools.partial(
        _render,
        tpl=tpl,
        context=context,
        files=files,
        type_pt=type_pt,
        citation=citation,
        headline_pt=least.headline_pt,
        placement=next((b.params.placement for b in doc.formats if b.params.placement), None),
    )
    try:
        made = fit(render, profile.page, fraction, least)
    except ValueError:
        made = None  # a fraction the page cannot hold: reported below like copy too long
    if made is None:
        return Built(
            findings=(
                Finding(
                    "AD001",
                    f"the display ad does not fit {paper}'s page: even"
                    f" {profile.page.columns} col × {_inches(profile.page.type_area_in[1])} in,"
                    f" the full page, is too small for its copy at {type_pt:g} pt; shorten the"
                    " summary or print the full text elsewhere",
                    rule=rule,
                    citation=citation,
                    document=doc.name,
                ),
            )
        )
    ad, laid = made
    data = trimmed(pdf.finish(laid), ad)
    findings = []
    colors = color_images(data)
    if colors:
        findings.append(
            Finding(
                "AD003",
                f"the display ad holds color images ({', '.join(sorted(set(colors)))}); a"
                " newspaper page prints gray: supply the map as a PNG, JPEG or plain SVG",
                rule=rule,
                citation=citation,
                document=doc.name,
            )
        )
    findings.append(
        Finding(
            "AD004",
            f"display ad for {paper}: {describe(ad)}",
            rule=rule,
            citation=citation,
            document=doc.name,
        )
    )
    output = Output(KIND, Format.PDF, f"{doc.name}.pdf", data, notice_ids + format_ids)
    return Built((output,), tuple(findings))


def _render(
    ad: AdSize,
    *,
    tpl: Templates,
    context: dict[str, Any],
    files: dict[str, bytes],
    type_pt: float,
    citation: str | None,
    headline_pt: float = 0.0,
    placement: str | None = None,
) -> Any:
    """The ad laid out at size `ad` (a WeasyPrint document)."""
    ad_context = _ad_context(ad, type_pt, citation, headline_pt)
    ad_context["placement"] = placement or ""
    html = tpl.render("display_ad.html.j2", context | {"ad": ad_context})
    return pdf.lay_out(html, files, tpl.path)


def _ad_context(
    ad: AdSize, type_pt: float, citation: str | None, headline_min_pt: float = 0.0
) -> dict[str, Any]:
    """What the template needs of the size: numbers for the CSS and the geometry line."""
    # A headline the width of the ad can carry: about 3 pt per inch of width, within reason;
    # never below the law's headline type ("no smaller than 18 point").
    headline = round(min(max(1.8 * type_pt, 3 * ad.width_in), 3.5 * type_pt), 1)
    return {
        # Exact to a millionth of an inch: the PDF page must be the size the paper sells.
        "width_in": f"{ad.width_in:.6f}",
        "depth_in": f"{ad.depth_in:.6f}",
        "slug_in": SLUG_IN,
        "rule_pt": RULE_PT,
        "inset_in": INSET_IN,
        # Never smaller than the paper's news type (old R.I. § 45-24-53 asked as much).
        "font_pt": type_pt,
        "headline_pt": max(headline, headline_min_pt),
        "headline_min_pt": f"{headline_min_pt:g}" if headline_min_pt else "",
        # About two of the paper's columns per text column: lines of a readable length, and
        # room for a legible map.
        "text_columns": math.ceil(ad.columns / 2),
        "gap_in": 0.12,
        "citation": citation or "",
        **numbers(ad),
    }


DOCUMENT = DocumentType(
    KIND,
    "The display ad, its trim exactly the ad's size on the newspaper's page, its size noted beneath.",
    (File("{name}.pdf", Format.PDF, KIND),),
    ("case", "plan", "schedule", "map", "newspaper profile"),
    lambda p: bool(p.plan.of(Channel.DISPLAY_AD)),
    build,
)
