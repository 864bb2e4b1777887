"""The website notice (accessible HTML, tagged PDF) and the posting sheet for bulletin boards."""

from __future__ import annotations

import base64
import dataclasses
import io
import itertools
import json
import re
import unicodedata
from datetime import date
from pathlib import Path
from typing import Any

import html5lib
import pikepdf
import pytest
from pypdf import PdfReader

from generator import schedule
from generator.documents import registry
from generator.documents.base import Output
from generator.documents.posting_notice import latest_posting
from generator.findings import Finding
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.plan import Plan
from generator.prepare import prepare
from generator.render.filters import long_date
from tests.conftest import CASES, notices, write_case

POSTED = (DocumentKind.WEBSITE_NOTICE, DocumentKind.POSTING_NOTICE)


@dataclasses.dataclass
class Made:
    """A prepared case and the website notices and posting sheets its builders made."""

    plan: Plan
    deadlines: list[schedule.Deadline]
    outputs: list[Output]
    findings: list[Finding]

    def file(self, path: str) -> bytes:
        return next(o.data for o in self.outputs if o.path == path)


def make(path: Path) -> Made:
    """Prepare a case and make its website notices and posting sheets, as `notices build` does."""
    prepared = prepare(path)
    built = registry.make(prepared, kinds=POSTED)
    return Made(prepared.plan, list(prepared.deadlines), list(built.outputs), list(built.findings))


@pytest.fixture(scope="module")
def newport() -> Made:
    return make(CASES / "newport-2027-map-01.yaml")


@pytest.fixture(scope="module")
def ep() -> Made:
    return make(CASES / "ep-2027-za-03.yaml")


@pytest.fixture(scope="module")
def az() -> Made:
    return make(CASES / "az-2027-posting-01.yaml")


def words(text: str) -> str:
    """Text compared as words: ligatures unfolded, white space single."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def pdf_text(data: bytes) -> str:
    """The PDF's words, without the page footers and list bullets that interrupt a sentence."""
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return words(re.sub(r"Page \d+ of \d+|\u2022", " ", text))


def parse(html: bytes) -> Any:
    """Parse strictly: any HTML parse error fails the test."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(html.decode("utf-8"))


def text_of(element: Any) -> str:
    return words(" ".join(element.itertext()))


# ----------------------------------------------------------------------- contrast ----

_NAMED = {"black": "#000000", "white": "#ffffff", "inherit": None, "currentcolor": None}


def rgb(value: str) -> tuple[int, int, int] | None:
    """A CSS colour as 0-255 RGB; None for a keyword that takes its colour from elsewhere."""
    value = value.strip().lower().removesuffix("!important").strip()
    if value in _NAMED:
        named = _NAMED[value]
        if named is None:
            return None
        value = named
    if m := re.fullmatch(r"#([0-9a-f]{3})", value):
        return tuple(int(c * 2, 16) for c in m.group(1))  # type: ignore[return-value]
    if m := re.fullmatch(r"#([0-9a-f]{6})", value):
        h = m.group(1)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    if m := re.fullmatch(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", value):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    raise AssertionError(f"colour {value!r} not understood by the contrast check")


def luminance(color: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_arithmetic() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast(rgb("#777"), rgb("white")) < 4.5 < contrast(rgb("#767676"), rgb("#fff"))  # type: ignore[arg-type]


# -------------------------------------------------------------------- the checks ----


def check_accessible(html: bytes) -> Any:
    """The basic accessibility checks of the website page; returns the parsed tree."""
    root = parse(html)
    assert root.tag == "html" and root.get("lang") == "en"
    title = root.find("head/title")
    assert title is not None and text_of(title)
    assert not root.findall(".//script")
    assert not any(k.lower().startswith("on") for e in root.iter() for k in e.attrib)
    assert len(root.findall(".//h1")) == 1
    levels = [int(e.tag[1]) for e in root.iter() if re.fullmatch(r"h[1-6]", str(e.tag))]
    assert levels[0] == 1
    for before, after in itertools.pairwise(levels):
        assert after <= before + 1, f"heading level skips from h{before} to h{after}: {levels}"
    body = root.find("body")
    assert body.find("header") is not None and body.find("main") is not None
    assert body.find("main").findall(".//section")
    for img in root.iter("img"):
        assert (img.get("alt") or "").strip(), "every image needs alt text"
    # The page names nothing outside itself: no stylesheet, image or script to fetch.
    assert not root.findall(".//link")
    for e in root.iter():
        for attr in ("src", "href"):
            value = e.get(attr)
            assert value is None or value.startswith(("data:", "#", "https://", "mailto:"))
    # Contrast: every colour declared in the page's CSS against its white background.
    css = "\n".join(text_of(s) for s in root.iter("style"))
    css += "\n".join(e.get("style") or "" for e in root.iter())
    assert re.search(r"html\s*{[^}]*background:\s*#fff\b", css)
    colors = re.findall(r"(?<![\w-])color\s*:\s*([^;}\"]+)", css)
    assert colors, "the page declares its text colour"
    for value in colors:
        c = rgb(value)
        if c is not None:
            assert contrast(c, (255, 255, 255)) >= 4.5, f"color {value} is too light"
    return root


def struct_elements(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """Every structure element of a tagged PDF, in reading order."""
    out: list[pikepdf.Dictionary] = []

    def walk(node: Any) -> None:
        if isinstance(node, pikepdf.Array):
            for kid in node:
                walk(kid)
        elif isinstance(node, pikepdf.Dictionary) and "/S" in node:
            out.append(node)
            if "/K" in node:
                walk(node.K)

    walk(pdf.Root.StructTreeRoot.K)
    return out


def check_tagged(data: bytes, *, has_map: bool) -> None:
    """The PDF is tagged: structure tree, language, marked, a title shown, the map's alt text."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        root = pdf.Root
        assert "/StructTreeRoot" in root
        assert str(root.Lang) == "en"
        assert bool(root.MarkInfo.Marked) is True
        assert bool(root.ViewerPreferences.DisplayDocTitle) is True
        assert str(pdf.docinfo.Title).startswith("NOTICE OF PUBLIC HEARING")
        assert str(pdf.open_metadata().get("pdfuaid:part")) == "1"
        elements = struct_elements(pdf)
        kinds = [str(e.S) for e in elements]
        assert kinds.count("/H1") == 1
        figures = [e for e in elements if e.S == "/Figure"]
        if has_map:
            assert figures and all(str(e.get("/Alt", "")).strip() for e in figures)
        else:
            assert not figures


def posted_places(made: Made) -> list[str]:
    case = made.plan.case
    return [p.name for p in case.posting_places if p.kind != "property" and p.kind != "website"]


# ------------------------------------------------------------------ website page ----


def test_outputs_named_by_plan(newport: Made, ep: Made, az: Made) -> None:
    assert [(o.kind, o.format, o.path, o.rules) for o in newport.outputs] == [
        (DocumentKind.WEBSITE_NOTICE, Format.HTML, "website_notice.html", ("website_posting", "npt_website_posting")),
        (DocumentKind.WEBSITE_NOTICE, Format.PDF, "website_notice.pdf", ("website_posting", "npt_website_posting")),
        (DocumentKind.POSTING_NOTICE, Format.PDF, "posting_notice.pdf", ("clerk_posting", "npt_clerk_posting")),
        (DocumentKind.POSTING_NOTICE, Format.HTML, "posting_notice.html", ("clerk_posting", "npt_clerk_posting")),
    ]  # fmt: skip
    assert {o.path for o in ep.outputs} == {
        "website_notice.html",
        "website_notice.pdf",
        "posting_notice.pdf",
        "posting_notice.html",
    }
    # Arizona: no website notice; a posting sheet for each hearing, and (the posted notice must
    # be legible from afar) a poster of each, made by the same builder.
    assert {o.path for o in az.outputs} == {
        "posting_notice-planning.pdf",
        "posting_notice-planning.html",
        "posting_notice-planning-poster.pdf",
        "posting_notice-council.pdf",
        "posting_notice-council.html",
        "posting_notice-council-poster.pdf",
    }


@pytest.mark.parametrize("name", ["newport", "ep"])
def test_website_page_is_accessible(name: str, request: pytest.FixtureRequest) -> None:
    made: Made = request.getfixturevalue(name)
    html = made.file("website_notice.html")
    root = check_accessible(html)
    doc = made.plan.of(Channel.WEBSITE)[0]
    # Every required clause is marked, as in the newspaper notice.
    marks = {e.get("data-clause") for e in root.iter() if e.get("data-clause")}
    assert {i for ids in doc.topics().values() for i in ids} <= marks
    # The map travels inside the page as a PNG, with the map's own description as alt text.
    (img,) = list(root.iter("img"))
    assert img.get("alt") == made.plan.map.alt  # type: ignore[union-attr]
    src = img.get("src")
    assert src.startswith("data:image/png;base64,")
    assert base64.b64decode(src.split(",", 1)[1]) == made.plan.map.raster  # type: ignore[union-attr]


def test_website_page_says_when_posted(newport: Made) -> None:
    root = check_accessible(newport.file("website_notice.html"))
    text = text_of(root.find("body"))
    assert (
        "Posted on the website of the City of Newport (Home page of the City of Newport website,"
        " https://www.cityofnewport.com) on or before Wednesday, April 14, 2027, as R.I.G.L."
        " § 45-24-53(a); Newport Codified Ordinances § 17.120.020(A) requires; to remain posted"
        " until the public hearing on Wednesday, April 28, 2027."
    ) in text
    assert latest_posting(newport.deadlines, newport.plan.of(Channel.WEBSITE)[0]) == date(
        2027, 4, 14
    )


def test_website_pdf_is_tagged(newport: Made, ep: Made) -> None:
    check_tagged(newport.file("website_notice.pdf"), has_map=True)
    check_tagged(ep.file("website_notice.pdf"), has_map=True)
    text = pdf_text(newport.file("website_notice.pdf"))
    for expected in (
        "Wednesday, April 28, 2027, at 6:30 p.m.",
        "City Council Chambers, Newport City Hall, 43 Broadway, Newport, RI 02840",
        "Case No. ZA 2027-01",
        "on or before Wednesday, April 14, 2027",
    ):
        assert expected in text
    text = pdf_text(ep.file("website_notice.pdf"))
    for expected in (
        "Tuesday, March 16, 2027, at 7:00 p.m.",
        "City Council Chambers, East Providence City Hall, 145 Taunton Avenue",
        "Case No. ZA-2027-03",
        "on or before Tuesday, March 2, 2027",
    ):
        assert expected in text


def test_amendment_headings_stay_under_the_title() -> None:
    """A text amendment's own `#` headings must not make a second h1 or skip a level."""
    made = make(CASES / "newport-2027-text-01.yaml")
    root = check_accessible(made.file("website_notice.html"))
    assert root.find(".//div[@class='full-text']/h3") is not None
    check_tagged(made.file("website_notice.pdf"), has_map=False)
    check_tagged(made.file("posting_notice.pdf"), has_map=False)


# ------------------------------------------------------------------ posting sheet ----


def check_sheet(made: Made, name: str, latest: date) -> str:
    """The posting sheet is letter size, tagged, holds every clause, the places and the post-by date."""
    doc = next(d for d in made.plan.of(Channel.POSTING) if d.name == name)
    data = made.file(f"{name}.pdf")
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (612, 792)
    check_tagged(data, has_map=made.plan.map is not None)
    text = pdf_text(data)
    root = parse(made.file(f"{name}.html"))
    assert text_of(root.find(".//h1")) == "NOTICE OF PUBLIC HEARING"
    required = {i for ids in doc.topics().values() for i in ids}
    marked = {e.get("data-clause"): e for e in root.iter() if e.get("data-clause")}
    assert required <= set(marked)
    for rule_id in sorted(required):
        assert text_of(marked[rule_id]) in text, rule_id
    hearing = doc.hearing
    assert f"{long_date(hearing.date)}, at" in text
    assert f"{hearing.place}, {hearing.address.one_line()}" in text
    assert f"Case No. {made.plan.case.case_number}" in text
    assert latest_posting(made.deadlines, doc) == latest
    assert f"Post no later than {long_date(latest)}." in text
    assert f"Keep posted through the public hearing on {long_date(hearing.date)}." in text
    for place in posted_places(made):
        assert place in text
    return text


def test_posting_sheet_rhode_island(newport: Made, ep: Made) -> None:
    text = check_sheet(newport, "posting_notice", date(2027, 4, 14))
    assert (
        "R.I.G.L. § 45-24-53(a); Newport Codified Ordinances § 17.120.020(A) requires this notice"
        " to be posted in the city or town clerk's office and one other municipal building"
        " (at least 2 places)."
    ) in text
    assert "Office of the City Clerk, Newport City Hall, 43 Broadway" in text
    assert "Newport Police Department Headquarters, 120 Broadway" in text
    assert "Home page of the City of Newport website" not in text  # not a bulletin board
    text = check_sheet(ep, "posting_notice", date(2027, 3, 2))
    assert "Office of the City Clerk, East Providence City Hall, 145 Taunton Avenue" in text
    assert "East Providence Police Department Headquarters, 750 Waterman Avenue" in text
    assert "place to be named" not in text
    assert not [f for f in ep.findings if f.code == "POST001"]


def test_posting_sheet_arizona_ten_places(az: Made) -> None:
    for name, latest in (
        ("posting_notice-planning", date(2027, 5, 26)),
        ("posting_notice-council", date(2027, 6, 21)),
    ):
        text = check_sheet(az, name, latest)
        assert "in public places in the municipality (at least 10 places)" in text
        assert len(posted_places(az)) == 10
        assert "On the property, facing" not in text  # the sign on the land is another document
        assert "ZONING" in text.split("NOTICE OF PUBLIC HEARING")[0]  # A.R.S. § 9-462.04(A)(1)
        assert "the law requires at least" not in text  # ten places are listed


def test_too_few_places_are_flagged(tmp_path: Path) -> None:
    """Four of the ten public places: the sheet lists them and leaves six lines to fill in."""
    text = (CASES / "az-2027-posting-01.yaml").read_text()
    cut = text.index("  - name: Saguaro Wells Senior Center")
    end = text.index("  - name: Town website")
    made = make(write_case(tmp_path, text[:cut] + text[end:]))
    sheet = pdf_text(made.file("posting_notice-council.pdf"))
    assert "(at least 10 places). Post it at:" in sheet
    assert sheet.count("______________________________________ (place to be named)") == 6
    assert "The case lists" not in sheet
    short = [f for f in made.findings if f.code == "POST001"]
    assert {f.document for f in short} == {
        "posting_notice-planning.pdf",
        "posting_notice-council.pdf",
    }
    assert all(f.rule == "public_places_posting" for f in short)
    assert all(f.citation == "A.R.S. § 9-462.04(A)(1)" for f in short)
    assert "the case names 4 of them" in short[0].message


def test_a_case_naming_no_posting_places_is_not_ready(tmp_path: Path) -> None:
    """Issue 13: the East Providence sheet said 0 places while the law requires two, and the
    manifest still said ready."""
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    start = text.index("posting_places:")
    end = text.index("signer:")
    path = write_case(tmp_path, text[:start] + text[end:])
    out = tmp_path / "out"
    done = notices("build", str(path), "--out", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    manifest = json.loads((out / "case-x" / "manifest.json").read_text())
    assert not manifest["ready"]
    (short,) = [f for f in manifest["findings"] if f["code"] == "POST001"]
    assert short["severity"] == "error" and short["rule"] == "clerk_posting"
    assert short["citation"] == "R.I.G.L. § 45-24-53(a); East Providence Code § 19-74(3)"
    sheet = pdf_text((out / "case-x" / "posting_notice.pdf").read_bytes())
    assert "(at least 2 places)" in sheet
    assert sheet.count("(place to be named)") == 2
    assert "0 places" not in sheet and "lists 0" not in sheet


# ---------------------------------------------------------------------- escaping ----


def test_case_values_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script> {{ 7*7 }}"
    text = (CASES / "newport-2027-map-01.yaml").read_text()
    old = "  name: Bliss Corner Realty, LLC\n  is_owner: true"
    assert old in text
    path = write_case(tmp_path, text.replace(old, f"  name: '{evil}'\n  is_owner: true"))
    made = make(path)
    for name in ("website_notice", "posting_notice"):
        html = made.file(f"{name}.html").decode()
        assert "&lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }}" in html
        assert "<script" not in html
        assert f"Applicant: {evil}." in pdf_text(made.file(f"{name}.pdf"))
    check_accessible(made.file("website_notice.html"))


def test_same_input_same_bytes(ep: Made) -> None:
    again = make(CASES / "ep-2027-za-03.yaml")
    assert [o.data for o in again.outputs] == [o.data for o in ep.outputs]
