"""The display ad: its size against the paper's page, and the PDF it makes (real WeasyPrint)."""

from __future__ import annotations

import io
import math
import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import pdfplumber
import pikepdf
import pypdf
import pytest
from PIL import Image

from generator.documents import display_ad
from generator.documents.base import Output
from generator.documents.display_ad import (
    AGATE_LINES_PER_IN,
    AdSize,
    color_images,
    column_width,
    grayscale_map,
    size,
)
from generator.findings import Finding
from generator.inputs import CaseFile, load_profile
from generator.kinds import DocumentKind, Format
from generator.lint.checks import clause_present
from generator.models.newspaper import Page
from generator.models.pack import Channel
from generator.paths import JURISDICTIONS
from generator.plan import MapInfo, Plan
from generator.prepare import Prepared, drawn_map, prepare
from generator.render import pdf, templates
from tests.conftest import CASES, write_case

EPS = 1e-9
PROFILES = ("newport-daily-news", "saguaro-wells-sun")
AZ = (CASES / "az-2027-text-01.yaml").read_text()
SHELBY = (CASES / "shelby-2027-map-01.yaml").read_text()
EVIL = "<script>alert(1)</script> {{ 7*7 }}"


def page_of(profile: str) -> Page:
    return load_profile(profile).page


def area_needed(page: Page, fraction: float) -> float:
    return fraction * page.type_area_in[0] * page.type_area_in[1]


def column_inches_needed(page: Page, fraction: float) -> float:
    return fraction * page.columns * page.type_area_in[1]


# ------------------------------------------------------------------------------ geometry ----
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("fraction", [0.125, 0.25, 0.5, 1.0])
def test_the_default_ad_reaches_the_fraction_by_area_and_by_column_inches(
    profile: str, fraction: float
) -> None:
    page = page_of(profile)
    ad = size(page, fraction)
    k = ad.columns
    assert ad.width_in == pytest.approx(k * page.column_width_in + (k - 1) * page.gutter_in)
    assert ad.area_sq_in >= area_needed(page, fraction) - EPS
    assert ad.column_inches >= column_inches_needed(page, fraction) - EPS
    assert ad.fraction >= fraction - EPS
    assert ad.depth_in <= page.type_area_in[1] + EPS
    assert ad.columns >= math.ceil(page.columns / 2)
    lines = ad.depth_in * AGATE_LINES_PER_IN
    assert lines == pytest.approx(round(lines)), "the depth is whole agate lines"
    # The shallowest such ad: one agate line less misses the fraction.
    shorter = replace(ad, depth_in=ad.depth_in - 1 / AGATE_LINES_PER_IN)
    assert not shorter.fraction >= fraction - EPS


@pytest.mark.parametrize(
    ("profile", "fraction", "columns", "lines"),
    [
        # legal-domain.md §5: 1/8 of a 50-in broadsheet is 3 col × 5.3 in; 1/2 is 6 col × 10.5 in.
        ("newport-daily-news", 0.125, 3, 75),
        ("newport-daily-news", 0.5, 6, 147),
        ("newport-daily-news", 1.0, 6, 294),
        ("saguaro-wells-sun", 0.125, 3, 32),
        ("saguaro-wells-sun", 0.5, 5, 74),
    ],
)
def test_the_default_shapes_are_the_rate_card_units(
    profile: str, fraction: float, columns: int, lines: int
) -> None:
    ad = size(page_of(profile), fraction)
    assert (ad.columns, round(ad.depth_in * AGATE_LINES_PER_IN)) == (columns, lines)


def test_a_forced_width_still_reaches_the_fraction_and_a_narrow_one_needs_more_depth() -> None:
    page = page_of("newport-daily-news")
    two = size(page, 0.125, columns=2)
    assert two.width_in == pytest.approx(2 * 1.875 + 0.1375)
    # 2 col × 8.1 in (legal-domain.md §5): the area binds, not the 15.75 column-inches.
    assert two.depth_in == pytest.approx(
        math.ceil(area_needed(page, 0.125) / two.width_in * 14) / 14
    )
    assert two.column_inches > column_inches_needed(page, 0.125)
    assert two.fraction >= 0.125 - EPS
    # 3 columns are narrower than half the page (two gutters, not two and a half), so 3 col ×
    # 21 in is NOT half the page by area, though it is 63 column-inches.
    assert column_width(page, 3) * 21 < area_needed(page, 0.5)
    with pytest.raises(ValueError):
        size(page, 0.5, columns=3)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_request_the_page_cannot_hold_raises(profile: str) -> None:
    page = page_of(profile)
    with pytest.raises(ValueError):
        size(page, 0.5, columns=1)
    with pytest.raises(ValueError):
        size(page, 1.5)
    with pytest.raises(ValueError):
        size(page, 0.125, columns=page.columns + 1)
    with pytest.raises(ValueError):
        size(page, 0.125, at_least_in=page.type_area_in[1] + 1)
    full = size(page, 1.0)
    assert (full.columns, full.depth_in) == (page.columns, pytest.approx(page.type_area_in[1]))


# ------------------------------------------------------------------------- rendering ----
@dataclass
class Made:
    prepared: Prepared
    outputs: list[Output]
    findings: list[Finding]

    @property
    def cf(self) -> CaseFile:
        return self.prepared.case_file

    @property
    def plan(self) -> Plan:
        return self.prepared.plan


def make(path: Path) -> Made:
    """Prepare a case and make its display ads, as `notices build` does."""
    prepared = prepare(path)
    built = display_ad.build(prepared, templates.for_pack(prepared.pack))
    return Made(prepared, list(built.outputs), list(built.findings))


def reaches(ad: AdSize, fraction: float) -> bool:
    """Whether the ad covers at least `fraction` of the page by area and by column-inches."""
    return ad.fraction >= fraction - EPS


def trim_box_in(data: bytes) -> tuple[float, float]:
    """The ad's size: its PDF's TrimBox, the top of a page whose bottom is the slug."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    trim, media = page.trimbox, page.mediabox
    assert [float(v) for v in (trim.left, trim.top, trim.right)] == pytest.approx(
        [float(v) for v in (media.left, media.top, media.right)], abs=1e-3
    )
    assert float(trim.bottom - media.bottom) == pytest.approx(display_ad.SLUG_IN * 72)
    return float(trim.width) / 72, float(trim.height) / 72


def text_of(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return " ".join(" ".join(p.extract_text() for p in reader.pages).split())


def geometry_of(data: bytes, page: Page, fraction: float) -> AdSize:
    """The ad's size as the PDF shows it, checked against the paper's grid."""
    width, depth = trim_box_in(data)
    columns = [k for k in range(1, page.columns + 1) if abs(column_width(page, k) - width) < 1e-3]
    assert len(columns) == 1, f"{width} in is not a whole number of the paper's columns"
    return AdSize(columns[0], width, depth, *page.type_area_in, page.columns, fraction)


def assert_clauses_present(made: Made, text: str) -> None:
    """Every clause the pack requires of the ad is recognized in its text, by the pack's checks."""
    (doc,) = made.plan.of(Channel.DISPLAY_AD)
    assert doc.clauses
    for b in doc.clauses:
        checks = b.params.checks
        if checks is None:
            continue
        assert clause_present(checks, text), b.rule.id


@pytest.fixture(scope="module")
def az_tabloid() -> Made:
    return make(CASES / "az-2027-text-01.yaml")


def test_the_az_ad_is_exactly_its_size_and_covers_an_eighth_of_the_tabloid_page(
    az_tabloid: Made,
) -> None:
    (out,) = az_tabloid.outputs
    data = out.data
    assert (out.kind, out.format, out.path) == (
        DocumentKind.DISPLAY_AD,
        Format.PDF,
        "display_ad.pdf",
    )
    assert out.rules == ("standards_display_ad", "display_ad_size")
    page = az_tabloid.cf.newspaper_profile.page
    ad = geometry_of(data, page, 0.125)
    assert reaches(ad, 0.125)
    assert ad.area_sq_in >= area_needed(page, 0.125)
    assert ad.column_inches >= column_inches_needed(page, 0.125)
    # The copy is longer than the minimum ad: the depth grew, in whole agate lines.
    assert ad.depth_in > size(page, 0.125).depth_in
    assert ad.agate_lines == pytest.approx(round(ad.agate_lines), abs=1e-3)
    # The geometry line printed beneath the ad is the ad's own size.
    assert f"{ad.columns} col × {ad.depth_in:.2f} in ({ad.width_in:.2f} × " in text_of(data)
    (info,) = [f for f in az_tabloid.findings if f.code == "AD004"]
    assert info.severity == "info" and info.rule == "display_ad_size"
    assert not [f for f in az_tabloid.findings if f.severity == "error"]


def test_the_az_ad_holds_the_hearing_publication_date_clauses_and_its_geometry(
    az_tabloid: Made,
) -> None:
    data = az_tabloid.outputs[0].data
    text = text_of(data)
    assert "March 11, 2027" in text and "6:00 p.m." in text  # the first hearing, (A)(5)(c)
    assert "Publication date: Wednesday, February 24, 2027" in text
    assert "NOTICE OF PUBLIC HEARING" in text and "ZTA-2027-02" in text
    assert_clauses_present(az_tabloid, text)
    assert "≥ 1/8 of the 9.4 × 10.5 in" in text and "A.R.S. § 9-462.04(A)(5)(c)" in text


def test_the_size_footnote_is_printed_beneath_the_ad_outside_its_border(
    az_tabloid: Made,
) -> None:
    data = az_tabloid.outputs[0].data
    with pdfplumber.open(io.BytesIO(data)) as doc:
        (page,) = doc.pages
        x0, y0, x1, y1 = (float(v) for v in pypdf.PdfReader(io.BytesIO(data)).pages[0].trimbox)
        edge = page.height - y0  # the ad's bottom edge, from the top of the page
        words = page.extract_words()
        boxes = [(r["x0"], r["y0"], r["x1"], r["y1"]) for r in page.rects]
    # The border is the ad's edge: its outer edge on the trim, all round, its inner one a rule in.
    rule = display_ad.RULE_PT
    for edge_box in ((x0, y0, x1, y1), (x0 + rule, y0 + rule, x1 - rule, y1 - rule)):
        assert any(b == pytest.approx(edge_box, abs=0.01) for b in boxes), (edge_box, boxes)
    ad = [w["text"] for w in words if w["bottom"] <= edge - 2]
    foot = [w["text"] for w in words if w["top"] >= edge + 2]
    assert len(ad) + len(foot) == len(words), "no word on the border"
    assert " ".join(foot).startswith("Display ad: 3 col ×")
    assert "A.R.S. § 9-462.04(A)(5)(c)" in " ".join(foot)
    assert "col-in" not in " ".join(ad) and "NOTICE OF PUBLIC HEARING" in " ".join(ad)


def test_the_ad_on_a_broadsheet_is_sized_to_that_page(tmp_path: Path) -> None:
    case = write_case(
        tmp_path,
        AZ.replace("profile: saguaro-wells-sun", "profile: newport-daily-news"),
        "az-broadsheet.yaml",
    )
    made = make(case)
    (out,) = made.outputs
    page = page_of("newport-daily-news")
    ad = geometry_of(out.data, page, 0.125)
    assert reaches(ad, 0.125) and ad.columns >= 3
    assert ad.depth_in >= size(page, 0.125).depth_in - EPS
    text = text_of(out.data)
    assert "March 11, 2027" in text
    assert "of the 11.94 × 21 in" in text


@pytest.fixture(scope="module")
def nc_half_page(tmp_path_factory: pytest.TempPathFactory) -> Made:
    text = (
        SHELBY.replace("properties_affected: 2\n", "properties_affected: 60\n")
        .replace("distinct_owners: 1\n", "distinct_owners: 55\n")
        .replace("large_scale_alternative: false", "large_scale_alternative: true")
        .replace("  profile: shelby-star\n", "  profile: newport-daily-news\n")
    )
    return make(write_case(tmp_path_factory.mktemp("nc"), text, "shelby-large.yaml"))


def test_the_nc_large_scale_ad_is_half_a_broadsheet_page(nc_half_page: Made) -> None:
    (doc,) = nc_half_page.plan.of(Channel.DISPLAY_AD)
    assert {i for b in doc.formats for i in b.ids} == {
        "large_scale_half_page",
        "shelby_large_scale_half_page",
    }
    (out,) = nc_half_page.outputs
    page = page_of("newport-daily-news")
    ad = geometry_of(out.data, page, 0.5)
    assert reaches(ad, 0.5)
    assert ad.area_sq_in >= area_needed(page, 0.5)
    assert ad.column_inches >= column_inches_needed(page, 0.5)
    assert (ad.columns, ad.depth_in) == (6, pytest.approx(10.5))
    text = text_of(out.data)
    assert "April 5, 2027" in text
    assert "March 24, 2027" in text and "April 3, 2027" in text  # two insertions
    assert_clauses_present(nc_half_page, text)
    assert "≥ 1/2 of the 11.94 × 21 in" in text and "G.S. 160D-602(b)" in text


def test_the_same_case_makes_the_same_bytes(nc_half_page: Made, tmp_path: Path) -> None:
    again = make(nc_half_page.cf.path)
    assert again.outputs[0].data == nc_half_page.outputs[0].data


def test_without_a_newspaper_profile_there_is_no_ad_but_an_error(tmp_path: Path) -> None:
    paper = (
        "newspaper:\n  name: The Saguaro Wells Sun\n  publication_days: [wednesday]\n"
        '  copy_deadline: {days_before: 6, time: "12:00 noon"}\n'
    )
    case = write_case(tmp_path, AZ.replace("newspaper:\n  profile: saguaro-wells-sun\n", paper))
    made = make(case)
    assert made.plan.of(Channel.DISPLAY_AD) and not made.outputs
    (err,) = made.findings
    assert (err.severity, err.code, err.rule) == ("error", "AD002", "display_ad_size")
    assert "`newspaper.profile`" in err.message
    assert err.citation == "A.R.S. § 9-462.04(A)(5)(c)"


def test_copy_longer_than_a_full_page_is_an_error_not_a_second_page(tmp_path: Path) -> None:
    summary = "  summary: >-\n" + "    " + "The height limit rises from 35 to 42 feet. " * 400
    text = re.sub(r"  summary: >-\n(    .*\n)+", summary + "\n", AZ, count=1)
    made = make(write_case(tmp_path, text))
    assert not made.outputs
    (err,) = [f for f in made.findings if f.code == "AD001"]
    assert err.severity == "error" and err.rule == "display_ad_size"
    assert err.citation == "A.R.S. § 9-462.04(A)(5)(c)"


def test_case_values_are_printed_literally_never_run(tmp_path: Path) -> None:
    text = AZ.replace(
        "title: Commercial district building height and permitted uses (ZTA-2027-02)",
        f"title: '{EVIL}'",
    )
    made = make(write_case(tmp_path, text))
    printed = text_of(made.outputs[0].data)
    assert EVIL in printed
    assert "49" not in printed


# ------------------------------------------------------------------------ print-safe ----
def rgb_png(path: Path) -> Path:
    image = Image.new("RGB", (240, 160), (255, 255, 255))
    for x in range(240):
        for y in range(60, 100):
            image.putpixel((x, y), (200, 30, 30))  # a red band: plainly color
    image.save(path)
    return path


def image_spaces(data: bytes) -> list[str]:
    """The /ColorSpace of every image XObject in a PDF (and its soft masks)."""
    with pikepdf.open(io.BytesIO(data)) as doc:
        return [
            str(obj.get("/ColorSpace"))
            for obj in doc.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
        ]


def test_a_color_map_is_turned_gray_and_the_check_would_catch_rgb(tmp_path: Path) -> None:
    data = rgb_png(tmp_path / "map.png").read_bytes()
    color = MapInfo("map.png", data, "The area", "Map", ())
    # The check is not vacuous: the clerk's map as given makes an RGB image in a PDF.
    html = '<html><body><img src="map.png"></body></html>'
    plain = pdf.write_pdf(html, {"map.png": data}, [])
    assert image_spaces(plain) == ["/DeviceRGB"] and color_images(plain)
    name, gray = grayscale_map(color)
    assert Image.open(io.BytesIO(gray)).mode == "L"
    assert grayscale_map(color) == (name, gray)  # the same bytes each time
    made = pdf.write_pdf(html.replace("map.png", name), {name: gray}, [])
    assert image_spaces(made) == ["/DeviceGray"] and not color_images(made)


def test_a_transparent_map_lies_on_white_paper() -> None:
    image = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    out = io.BytesIO()
    image.save(out, format="PNG")
    _, gray = grayscale_map(MapInfo("map.png", out.getvalue(), None, "Map", ()))
    assert Image.open(io.BytesIO(gray)).getextrema() == (255, 255)


def test_the_ad_with_a_clerks_color_map_holds_only_gray_images(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No pack asks a display ad for a map yet: a copy of the packs whose Saguaro Wells pack does.
    packs = tmp_path / "jurisdictions"
    shutil.copytree(JURISDICTIONS, packs)
    with (packs / "us-az-saguaro-wells.yaml").open("a") as f:
        f.write(
            "\n  - id: test_display_ad_map\n"
            "    title: The display ad shows a map (test rule)\n"
            "    citation: Test rule, not law\n"
            "    text: The display ad shows a map of the area affected.\n"
            "    kind: clause\n"
            "    params:\n"
            "      documents: [display_ad]\n"
            "      topic: map\n"
        )
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    rgb_png(tmp_path / "color-map.png")
    case = write_case(
        tmp_path,
        AZ.replace(
            "options:\n", "map: {image: color-map.png, alt: Map of C-2 and C-3 land}\noptions:\n"
        ),
    )
    made = make(case)
    # The clerk's own image, as given: a color PNG.
    the_map = made.prepared.map
    assert the_map is not None and not the_map.drawn
    assert (the_map.name, the_map.alt) == ("map.png", "Map of C-2 and C-3 land")
    assert the_map.data == (tmp_path / "color-map.png").read_bytes()
    (doc,) = made.plan.of(Channel.DISPLAY_AD)
    assert "map" in doc.topics()
    data = made.outputs[0].data
    spaces = image_spaces(data)
    assert spaces, "the ad carries the map"
    assert all(s == "/DeviceGray" for s in spaces), spaces
    assert not [f for f in made.findings if f.severity == "error"]
    assert "Map of the proposed change" in text_of(data)
    ad = geometry_of(data, page_of("saguaro-wells-sun"), 0.125)
    assert reaches(ad, 0.125)


def test_the_drawn_gis_map_is_vector_gray_in_the_ad() -> None:
    prepared = prepare(CASES / "shelby-2027-map-01.yaml")
    the_map = drawn_map(prepared.case_file, prepared.recipients)
    assert the_map is not None and the_map.drawn and the_map.name == "map.svg"
    name, data = grayscale_map(the_map)
    assert (name, data) == ("map.svg", the_map.data)  # vector, as drawn: sharper than the PNG
    made = pdf.write_pdf(f'<img src="{name}" style="width: 4in">', {name: data}, [])
    assert image_spaces(made) == []
    with pikepdf.open(io.BytesIO(made)) as doc:
        drawing = b"".join(
            obj.read_bytes()
            for obj in doc.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") != "/Image"
        )
    colors = re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", drawing)
    assert colors and all(r == g == b for r, g, b in colors), "every fill and stroke is gray"
