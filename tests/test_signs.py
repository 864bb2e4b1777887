"""Posted signs: letters measured in the rendered PDF reach the law's height; too much text fails."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.render import fonts
from tests.conftest import CASES, notices, write_case

POINTS_PER_INCH = 72


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample packets that post signs, built once by the real command."""
    out = tmp_path_factory.mktemp("signs")
    cases = ("az-2027-posting-01", "ok-2027-map-01", "shelby-2027-map-01")
    done = notices("build", *(str(CASES / f"{c}.yaml") for c in cases), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def lines_of(pdf_path: Path) -> list[tuple[str, float, float]]:
    """Each text line of page 1: its text, its smallest capital height and its font size."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        rows: dict[float, list[dict]] = {}
        for char in page.chars:
            rows.setdefault(round(char["top"], 0), []).append(char)
    out = []
    for _top, chars in sorted(rows.items()):
        chars.sort(key=lambda c: c["x0"])
        text = "".join(c["text"] for c in chars)
        caps = [
            c["size"] * fonts.cap_height_ratio(fonts.file_of_pdf_font(c["fontname"]))
            for c in chars
            if c["text"].strip()
        ]
        out.append((text, min(caps) / POINTS_PER_INCH, chars[0]["size"]))
    return out


def page_inches(pdf_path: Path) -> tuple[float, float]:
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        return page.width / POINTS_PER_INCH, page.height / POINTS_PER_INCH


def test_arizona_sign_items_are_four_inches_tall_on_a_four_by_eight_panel(packets: Path) -> None:
    """A.R.S. § 9-462.04(A)(1): "zoning", both districts, date and time legible from 100 ft."""
    pdf_path = packets / "az-2027-posting-01" / "sign-planning.pdf"
    assert page_inches(pdf_path) == pytest.approx((96, 48))
    lines = lines_of(pdf_path)
    required = ["ZONING", "R1-6", "C-2", "JUNE 10, 2027", "6:00 P.M."]
    for item in required:
        line = next((x for x in lines if item in x[0]), None)
        assert line is not None, (item, [x[0] for x in lines])
        assert line[1] >= 4.0 - 1e-6, (item, line)  # capitals at least 100 ft ÷ 25 ft/in
    words = " ".join(PdfReader(pdf_path).pages[0].extract_text().split())  # columns in order
    assert "legibility index of 25 ft per inch" in words
    assert "legible from 100 ft" in words
    assert "A.R.S. § 9-462.04(A)(1)" in words
    # The rest of the notice is there too, smaller: the hearing place and the case number.
    assert "Council Chambers, Saguaro Wells Town Hall" in words
    assert "RZ-2027-04" in words


def test_posters_for_public_places_meet_the_same_height(packets: Path) -> None:
    """The statute says "a posted notice": the ten public places get the 100-ft items too."""
    lines = lines_of(packets / "az-2027-posting-01" / "posting_notice-planning-poster.pdf")
    big = [x for x in lines if x[1] >= 4.0 - 1e-6]
    assert [x[0] for x in big][:2] == ["ZONING PUBLIC HEARING", "PRESENT ZONING: R1-6"]


def test_sign_without_a_distance_in_the_law_says_what_it_assumed(packets: Path) -> None:
    """The Oklahoma city's code says only "legible from the street": 50 ft unless the case says."""
    folder = packets / "ok-2027-map-01"
    manifest = json.loads((folder / "manifest.json").read_text())
    assumed = [f for f in manifest["findings"] if f["code"] == "SIGN001"]
    assert assumed and assumed[0]["rule"] == "sc_sign_legibility"
    lines = lines_of(folder / "sign.pdf")
    date_line = next(x for x in lines if "APRIL 20, 2027" in x[0])
    assert date_line[1] >= 2.0 - 1e-6
    assert any("PROPOSED USE: RETAIL PHARMACY" in x[0] for x in lines)
    sign = next(d for d in manifest["documents"] if d["path"] == "sign.pdf")
    assert {"posted_sign", "sc_posted_sign", "sc_sign_legibility"} <= set(sign["rules"])


def test_case_sets_the_reading_distance_where_the_law_is_silent(tmp_path: Path) -> None:
    text = (
        CASES / "ok-2027-map-01.yaml"
    ).read_text() + "sign: {legible_from_ft: 60, size_in: [120, 60]}\n"
    done = notices("build", str(write_case(tmp_path, text)), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    lines = lines_of(tmp_path / "out" / "case-x" / "sign.pdf")
    date_line = next(x for x in lines if "APRIL 20, 2027" in x[0])
    assert date_line[1] >= 2.4 - 1e-6  # 60 ft ÷ 25 ft/in
    assert "legiblefrom60ft" in "".join(x[0] for x in lines).replace(" ", "")


def test_too_long_district_name_fails_the_build_and_writes_nothing(tmp_path: Path) -> None:
    text = (CASES / "az-2027-posting-01.yaml").read_text()
    long_name = (
        "Planned Area Development District for Mixed Residential, Commercial, Office and"
        " Light Industrial Uses with a Transit-Oriented Overlay"
    )
    text = text.replace(
        "proposed_district: C-2 (Community Commercial)", f"proposed_district: {long_name}"
    )
    assert long_name in text
    out = tmp_path / "out"
    done = notices("build", str(write_case(tmp_path, text)), "--out", str(out))
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr
    assert "parcels[0].proposed_district" in message
    assert "case-x.yaml:" in message
    assert "4.00 in capitals" in message and "never set smaller" in message
    assert "Traceback" not in message
    assert not (out / "case-x").exists()


def test_a_larger_sign_from_the_case_fits_what_the_pack_size_cannot(tmp_path: Path) -> None:
    """The case sizes the sign where the pack does not (the state rule alone names no size)."""
    text = (CASES / "shelby-2027-map-01.yaml").read_text() + "sign: {size_in: [120, 60]}\n"
    done = notices("build", str(write_case(tmp_path, text)), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert page_inches(tmp_path / "out" / "case-x" / "sign.pdf") == pytest.approx((120, 60))


def test_nc_sign_window_and_certificate(packets: Path) -> None:
    """G.S. 160D-602(c): posted 10 to 25 days before; the certificate states the window."""
    folder = packets / "shelby-2027-map-01"
    schedule = json.loads((folder / "schedule.json").read_text())
    posted = next(d for d in schedule if d["rule"] == "posted_notice")
    with pdfplumber.open(folder / "certificate_of_posting-sign.pdf") as pdf:
        words = " ".join((p.extract_text() or "") for p in pdf.pages)
    words = " ".join(words.split())
    assert "CERTIFICATE OF POSTING" in words and "Notary" not in words
    from datetime import date

    latest, earliest = date.fromisoformat(posted["latest"]), date.fromisoformat(posted["earliest"])
    assert f"{latest:%B} {latest.day}, {latest.year}" in words
    assert f"{earliest:%B} {earliest.day}, {earliest.year}" in words
    assert "G.S. 160D-602(c)" in words
