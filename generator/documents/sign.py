"""Posted signs at print size, read from the road: the required items in tall capitals, the rest smaller.

Reading distance: the law's, where its format rules name one; else the case's
`sign.legible_from_ft`; else 100 ft, the product's promise that a driver passing on the street
can read the sign (SIGN001 says it was assumed). Capital height = distance ÷ legibility index.
The index is 25 ft of distance per inch of capital height: the conservative column of the
USSC / Penn State legibility chart for bold sans-serif capitals, black on white (4 in capitals
read from 100 ft; its other column, about 29 ft/in, would allow 3.5 in). The font size follows
from the font's own measured capital height.

The items set at that height are the ones the pack's format rules list plus those every sign
carries (ALWAYS_LEGIBLE): the word ZONING or REZONING, the present and proposed districts, the
hearing's date and time, and a phone number or web address to learn more. The rest of the sign
- where and by whom the hearing is held, the clauses the law requires on the sign, whom to ask,
the posting dates - is one smaller block, not the whole notice. Both are set as large as the
panel allows, so it is filled. When the required items do not fit the panel at their height,
the sign is made at the largest height that fits and SIGN002, an error, says how far it reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator import schedule
from generator.documents.base import Built, DocumentType, File, Output
from generator.errors import UserError
from generator.findings import Finding
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

DEFAULT_INDEX = 25.0  # ft per inch of capital height: USSC / Penn State chart (see above)
DEFAULT_DISTANCE_FT = 100.0  # where neither the law nor the case names one: read from the road
DEFAULT_SIZE_IN = (96.0, 48.0)  # the common 4 by 8 ft panel, where neither law nor case sizes it
# Legible on every sign, whatever else the law lists: what a passer-by needs to know and act on.
ALWAYS_LEGIBLE = (
    "word_zoning",
    "present_district",
    "proposed_district",
    "hearing_date_time",
    "contact",
)
MARGIN_IN = 1.0
LINE_HEIGHT = 1.05  # capitals only: no descenders to clear
REST_MIN_IN = 0.4  # the rest's least capitals: read by someone at the sign (10 ft at 25 ft/in)
REST_SHARE = 0.5  # the rest's capitals at most half the legible ones, so the legible stand out
GROW_MAX = 2.0  # on a roomy panel the legible lines grow, to at most twice their least height
STEP_IN = 1 / 32  # how closely the letter heights are fitted to the panel
KIND = DocumentKind.SIGN


@dataclass(frozen=True)
class Legibility:
    """What the law (or the case, or the product where both are silent) asks of the letters."""

    distance_ft: float
    index: float
    items: tuple[str, ...]  # what is set at the legible height: the law's and ALWAYS_LEGIBLE
    law_items: tuple[str, ...]  # what the pack's format rules list
    size_in: tuple[float, float]
    rules: tuple[str, ...]
    citation: str
    distance_from: str  # "law", "case" or "default"

    @property
    def distance_from_law(self) -> bool:
        """Whether the law names the distance (the linter measures signs only against the law)."""
        return self.distance_from == "law"

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
    law_items: list[str] = []
    for p in law:
        law_items += [str(i) for i in p.legible_items if str(i) not in law_items]
    case_distance = spec.legible_from_ft if spec else None
    distance = max([*distances, case_distance or 0.0]) or DEFAULT_DISTANCE_FT
    size = sizes[0] if sizes else (spec.size_in if spec and spec.size_in else None)
    return Legibility(
        distance_ft=distance,
        index=min(indexes) if indexes else DEFAULT_INDEX,
        items=tuple(dict.fromkeys([*law_items, *ALWAYS_LEGIBLE])),
        law_items=tuple(law_items),
        size_in=(size[0], size[1]) if size else DEFAULT_SIZE_IN,
        rules=tuple(i for b in formats for i in b.ids),
        citation="; ".join(dict.fromkeys(c for b in formats for c in b.citations)),
        distance_from="law" if distances else "case" if case_distance else "default",
    )


@dataclass(frozen=True)
class Fitted:
    """A sign laid out on its panel, and the capital heights it reached."""

    document: Any  # a laid-out WeasyPrint document
    legible_in: float
    rest_in: float
    fits: bool = True  # False: it runs past the panel (the search's layouts that overflow)
    fill: float = 0.0  # the panel's height used: 1.0 full, 1.5 half a panel over
    fixed: float = 0.0  # the panel's height above the rest: what its letters' growth leaves as is


def signs(prepared: Prepared, tpl: Templates, docs: list[DocumentPlan], suffix: str = "") -> Built:
    """One PDF at print size per sign (or poster, `suffix` "-poster") in `docs`.

    A sign is one panel read from the road: a bilingual case gets one sign in each language
    (`sign-council.pdf`, `sign-council-es.pdf`), each at the letter height the law asks.
    """
    made = Built()
    for doc, (lang, spoken) in ((d, t) for d in docs for t in tpl.each_language()):
        need = legibility(doc.formats, prepared.case.sign)
        name = f"{doc.name}{lang}{suffix}.pdf"
        fitted, lines = _make(prepared, spoken, doc, need, f"{doc.name}{lang}{suffix}")
        output = Output(
            doc.kind, Format.PDF, name, pdf.finish(fitted.document), doc.notice_ids + need.rules
        )
        cited = {
            "rule": need.rules[0] if need.rules else doc.notices[0].rule.id,
            "citation": need.citation or "; ".join(dict.fromkeys(doc.notices[0].citations)),
            "document": name,
        }
        findings = []
        if need.distance_from != "law":
            whose = (
                "the case's `sign.legible_from_ft`"
                if need.distance_from == "case"
                else "the default"
            )
            findings.append(
                Finding(
                    "SIGN001",
                    f"the law names no reading distance for the {doc.name}{lang}{suffix}; its required"
                    f" items are sized to be legible from {need.distance_ft:g} ft ({whose}:"
                    f" {need.cap_in:.2f} in capitals). Set `sign.legible_from_ft` to the distance"
                    " from which it must be read, if another",
                    **cited,
                )
            )
        if fitted.legible_in < need.cap_in - 1e-9:
            findings.append(_short(f"{doc.name}{lang}{suffix}", need, fitted, lines, cited))
        made += Built((output,), tuple(findings))
    return made


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The signs to post on the land."""
    return signs(prepared, tpl, prepared.plan.of(Channel.SIGN))


def _make(
    prepared: Prepared, tpl: Templates, doc: DocumentPlan, need: Legibility, name: str
) -> tuple[Fitted, list[dict[str, str]]]:
    """The sign laid out with the largest letters that fit, and its legible lines."""
    context = ctx.build(prepared.plan, doc, "")
    if "map" not in doc.topics():
        context["map"] = None  # a map on a sign is read by no one from the road
    context["sign"] = _sign_context(prepared, doc, need)
    the_map = prepared.map
    files = {the_map.name: the_map.data} if the_map and context["map"] else {}
    cap_ratio = fonts.cap_height_ratio(fonts.font_file(f"{fonts.SIGN_FAMILY}:bold"))

    def attempt(legible: float, rest: float, trial: bool = True) -> Fitted:
        """The sign with capitals `legible` and `rest` inches tall, and whether it fits.

        A trial layout leaves the rest's columns unbalanced: WeasyPrint decides whether they
        fit the page before it balances them, and balancing (a layout per pixel of height, on
        every page the letters run over) is most of a layout's time. The sign is made balanced.
        """
        context["sign"]["legible_pt"] = _points(legible, cap_ratio)
        context["sign"]["small_pt"] = _points(rest, cap_ratio)
        context["sign"]["legible_in"] = legible
        context["sign"]["trial"] = trial
        laid = pdf.lay_out(tpl.render_notice("sign.html.j2", context), files, tpl.path)
        return Fitted(laid, legible, rest, not _overflows(laid), _fill(laid), _above_rest(laid))

    fitted = _fit(attempt, need.cap_in)
    if fitted is not None:
        made = attempt(fitted.legible_in, fitted.rest_in, trial=False)
        if made.fits != fitted.fits:  # never seen: then every layout is a balanced one
            fitted = _fit(lambda legible, rest: attempt(legible, rest, False), need.cap_in)
        else:
            fitted = made
    if fitted is None:
        raise UserError(
            prepared.case_file.problem(
                ("sign",),
                f"the {name} cannot be laid out at any letter height: a word is wider than the"
                f" {need.size_in[0]:g} in panel. Shorten it or use a larger sign (`sign.size_in`)",
            )
        )
    return fitted, context["sign"]["lines"]


def _fit(attempt: Callable[[float, float], Fitted], cap_in: float) -> Fitted | None:
    """The largest letters that fit: the rest grows to half the legible height, then both grow.

    Layout height only grows with the letters, so each step is a bisection. Where the required
    items do not fit at `cap_in`, they shrink to the largest height that fits (SIGN002).
    """
    least = attempt(cap_in, REST_MIN_IN)
    step = STEP_IN / cap_in  # of a scale of the legible height
    if not least.fits:
        # Too much to carry: the legible lines shrink first, the rest only if they alone cannot.
        return _largest(
            lambda s: attempt(cap_in * s, REST_MIN_IN), REST_MIN_IN / cap_in, 1.0, step, over=least
        ) or _largest(lambda s: attempt(cap_in * s, REST_MIN_IN * s), step, 1.0, step, over=least)
    top = cap_in * REST_SHARE
    fitted = (
        _largest(lambda r: attempt(cap_in, r), REST_MIN_IN, top, STEP_IN, least, fixed=least.fixed)
        or least
    )
    if fitted.rest_in >= top - STEP_IN:
        fitted = (
            _largest(lambda s: attempt(cap_in * s, top * s), 1.0, GROW_MAX, step, fitted) or fitted
        )
    return fitted


def _largest(
    attempt: Callable[[float], Fitted],
    low: float,
    high: float,
    step: float,
    fits_low: Fitted | None = None,
    over: Fitted | None = None,
    fixed: float = 0.0,
) -> Fitted | None:
    """Bisect [low, high] to `step` for the largest value whose `attempt` fits.

    `fits_low`, the attempt at `low` when known to fit: the top is then tried first where the
    panel may take it (a roomy panel takes it at once), else last, only if every value below it
    fits. `fixed`: the share of the panel's height that does not grow with the value. Without
    `fits_low`, `high` is known not to fit (`over`, its layout, where the caller has it) and
    `low` is tried.

    The answer is the bisection's, found in fewer layouts: layout height only grows with the
    letters, so one layout answers every midpoint on its side. How full the layouts either side
    are predicts where the panel fills; the two points of the bisection's grid around that
    prediction are laid out first, then the bisection is replayed, laying out only the
    midpoints those leave open.
    """
    known: dict[float, Fitted] = {}
    top_open = False  # `high` not laid out yet: no answer about it is inferred
    if fits_low is not None:
        known[low] = fits_low
        # Where the panel is far from taking the top, its layout is the costliest of all (the
        # letters run over pages) and tells the bisection only what the next layouts tell.
        top_open = _reach(low, fits_low, fixed) < high
        if not top_open:
            known[high] = attempt(high)
            if known[high].fits:
                return known[high]
    else:
        known[low] = attempt(low)
        if not known[low].fits:
            return None
        if over is not None:
            known[high] = over

    def answer(x: float) -> bool | None:
        """Whether `x` fits, as far as the layouts made so far tell (None: not yet known)."""
        if x in known:
            return known[x].fits
        if (x >= high and not top_open) or any(not f.fits and x >= v for v, f in known.items()):
            return False
        if any(f.fits and x <= v for v, f in known.items()):
            return True
        return None

    guesses = 2  # predictions tried before plain bisection takes over
    while True:
        lo, hi = low, high
        while hi - lo > step and (fits := answer((lo + hi) / 2)) is not None:
            lo, hi = ((lo + hi) / 2, hi) if fits else (lo, (lo + hi) / 2)
        if hi - lo <= step:
            break
        target = _guess(known, lo, hi, fixed) if guesses else None
        if target is None:
            known[(lo + hi) / 2] = attempt((lo + hi) / 2)
            continue
        guesses -= 1
        a, b = lo, hi  # the bisection's own grid points either side of the prediction
        while b - a > step:
            a, b = ((a + b) / 2, b) if target >= (a + b) / 2 else (a, (a + b) / 2)
        for x in sorted((a, b), key=lambda x: abs(x - target)):  # the nearer first
            if answer(x) is None:
                known[x] = attempt(x)
    if top_open and hi >= high:  # every value below the top fits: then the top is tried
        known[high] = attempt(high)
        if known[high].fits:
            return known[high]
    if lo not in known:  # answered by a larger layout that fit: cannot happen, but be sure
        known[lo] = attempt(lo)
    return known[lo]


def _reach(x: float, fitted: Fitted, fixed: float) -> float:
    """The value at which the panel would fill if what grows grew in proportion to `x`.

    What grows grows at least so fast (more lines, never fewer, as the letters grow), so the
    panel fills at or before this value.
    """
    grows = fitted.fill - fixed
    return x * (1.0 - fixed) / grows if grows > 0 else math.inf


def _guess(known: dict[float, Fitted], lo: float, hi: float, fixed: float = 0.0) -> float | None:
    """Where in (`lo`, `hi`) the panel fills, from the closest layouts either side.

    The used height grows with the square of the letters that grow (lines get longer and more
    of them), on top of what does not grow: fill = a + b·x², through the two layouts. With
    no layout over the panel yet, a = `fixed`, through the largest that fits.
    """
    fit = max((v for v, f in known.items() if f.fits), default=None)
    over = min((v for v, f in known.items() if not f.fits), default=None)
    if fit is None:
        return None
    if over is None:
        grows = known[fit].fill - fixed
        x = fit * math.sqrt((1.0 - fixed) / grows) if grows > 0 else hi
        return min(max(x, lo), hi)
    f1, f2 = known[fit].fill, known[over].fill
    if not f1 < 1.0 < f2:
        return None  # a layout too wide (not too tall) says nothing of the height
    x2 = fit * fit + (1.0 - f1) * (over * over - fit * fit) / (f2 - f1)
    return min(max(math.sqrt(x2), lo), hi)


def _points(cap_in: float, cap_ratio: float) -> float:
    """The font size, rounded up to 0.1 pt, whose capitals are `cap_in` inches tall."""
    return math.ceil(cap_in * 72 / cap_ratio * 10) / 10


def _sign_context(prepared: Prepared, doc: DocumentPlan, need: Legibility) -> dict[str, Any]:
    case, hearing = prepared.case, doc.hearing
    present = list(dict.fromkeys(p.current_district for p in case.parcels if p.current_district))
    proposed = list(dict.fromkeys(p.proposed_district for p in case.parcels if p.proposed_district))
    # The items to be legible; sign.html.j2 words them.
    lines: list[tuple[str, str]] = [("headline", "")]
    items = set(need.items)
    if items & {"present_district", "district_change"} and present:
        lines.append(("present_district", ", ".join(map(district_code, present))))
    if items & {"proposed_district", "district_change"} and proposed:
        lines.append(("proposed_district", ", ".join(map(district_code, proposed))))
    # What for and who decides, then when and where: the order in which a passer-by acts on it.
    if "proposed_use" in items and case.amendment.proposed_use:
        lines.append(("proposed_use", case.amendment.proposed_use))
    if "hearing_body" in items:
        lines.append(("hearing_body", hearing.body_name))
    if items & {"hearing_date_time", "hearing_when_where"}:
        day = hearing.date
        lines.append(
            ("hearing_date_time", f"{day:%B} {day.day}, {day.year}, {clock(hearing.start_time)}")
        )
    if "hearing_when_where" in items:
        lines.append(("hearing_place", hearing.place))
    learn_more = case.contact.phone or case.examination.url or case.contact.email
    if "contact" in items and learn_more:
        lines.append(("contact", learn_more))
    earliest, latest = schedule.window_of(list(prepared.deadlines), doc.notice_ids, hearing)
    width, height = need.size_in
    return {
        "width_in": width,
        "height_in": height,
        "margin_in": MARGIN_IN,
        "line_height": LINE_HEIGHT,
        "family": fonts.SIGN_FAMILY,
        "lines": [{"item": item, "text": text} for item, text in lines],
        "law_items": need.law_items,
        "cap_in": need.cap_in,
        "index": need.index,
        "distance_ft": need.distance_ft,
        "citation": need.citation,
        "post_by": long_date(latest) if latest else None,
        "post_from": long_date(earliest) if earliest else None,
        "remove_after": long_date(hearing.date),
    }


def district_code(district: str) -> str:
    """The district's classification as zoning maps print it: `R1-6` of `R1-6 (Single-Family)`.

    `R-1` of `R-1 Single-Family Residential District`; a name with no code stays whole.
    """
    name = district.split(" (", 1)[0].strip()
    first = name.split(" ", 1)[0]
    return first if first != name and any(c.isdigit() for c in first) else name


def _fill(document: Any) -> float:
    """How much of the panel's height the laid-out sign uses (1.0: exactly full).

    Pages past the first count one each, plus the used share of the last page. The rest's
    columns count as balanced (their content's mean height), as a trial layout leaves them.
    """
    page = document.pages[-1]._page_box
    top = page.content_box_y()
    used = max((_bottom(b) - top for b in page.children), default=0.0)
    rest = _rest(page)
    columns = (
        [c for c in rest.children if getattr(c, "element", None) is rest.element] if rest else []
    )
    if columns:  # unbalanced, the first columns may hold it all: the mean of all of them
        count = rest.style["column_count"]
        count = max(len(columns), count if isinstance(count, int) else 1)
        heights = [max((_bottom(b) for b in c.children), default=c.position_y) for c in columns]
        mean = sum(h - c.position_y for h, c in zip(heights, columns, strict=True)) / count
        used = columns[0].position_y - top + mean
    return len(document.pages) - 1 + used / page.height


def _bottom(box: Any) -> float:
    return float(box.position_y + box.margin_height())


def _rest(box: Any) -> Any:
    """The box of the smaller block (`.rest`) in `box`, if any."""
    element = getattr(box, "element", None)
    if element is not None and "rest" in (element.get("class") or "").split():
        return box
    for child in getattr(box, "children", None) or []:
        if (found := _rest(child)) is not None:
            return found
    return None


def _above_rest(document: Any) -> float:
    """The share of the first page's height above the smaller block (`.rest`; 0.0: none)."""
    page = document.pages[0]._page_box
    rest = _rest(page)
    return 0.0 if rest is None else (rest.position_y - page.content_box_y()) / page.height


def _overflows(document: Any) -> bool:
    """Whether the laid-out sign runs past one page or past the panel's right margin."""
    from weasyprint.formatting_structure import boxes

    if len(document.pages) > 1:
        return True
    page = document.pages[0]._page_box
    right = page.content_box_x() + page.width + 0.5  # half a CSS pixel of rounding

    def wide(box: Any) -> bool:
        if isinstance(box, boxes.TextBox) and box.position_x + box.width > right:
            return True
        return any(wide(child) for child in getattr(box, "children", None) or [])

    return wide(page)


def _short(
    name: str,
    need: Legibility,
    fitted: Fitted,
    lines: list[dict[str, str]],
    cited: dict[str, str],
) -> Finding:
    """SIGN002: the required items do not fit the panel at the height their distance needs."""
    width, height = need.size_in
    reach = fitted.legible_in * need.index
    items = ", ".join(line["item"].replace("_", " ") for line in lines)
    law = f" ({need.citation})" if need.citation and need.distance_from == "law" else ""
    longest = max(lines, key=lambda line: len(line["text"]))["item"].replace("_", " ")
    return Finding(
        "SIGN002",
        f"the {name}'s required items ({items}) do not fit the {width:g} × {height:g} in panel in"
        f" {need.cap_in:.2f} in capitals, the height that makes them legible from"
        f" {need.distance_ft:g} ft{law}: they are set {fitted.legible_in:.2f} in tall, legible"
        f" from only {reach:.0f} ft. Use a larger sign (`sign.size_in`), shorten the longest item"
        f" ({longest}), or, where the law names no distance,"
        " set `sign.legible_from_ft` to the distance from which it must be read",
        **cited,
    )


DOCUMENT = DocumentType(
    KIND,
    "The sign posted on the land, at print size, its letters as tall as the reading distance needs.",
    (File("{name}.pdf", Format.PDF, KIND),),
    ("case", "plan", "schedule", "map"),
    lambda p: bool(p.plan.of(Channel.SIGN)),
    build,
)
