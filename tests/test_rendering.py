"""The newspaper notice in every format: escaping, clause markers, reproducibility, edited drafts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docx
import pypdf
import pytest

from generator.lint.checks import clause_present
from generator.packet import build
from generator.render.docx import text_of

from .conftest import CASES, ROOT, notices, without_gis, write_case
from .word import footers, headings, table_with, tables

EVIL = "<script>alert(1)</script> {{ 7*7 }} SMITH & JONES"


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages).split())


def docx_text(path: Path) -> str:
    return " ".join(text_of(path.read_bytes()).split())


@pytest.fixture(scope="module")
def evil_packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("evil")
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace("name: Riverside Square Holdings, LLC", f"name: '{EVIL}'")
    text = text.replace(
        "  proposed_use: Neighborhood retail",
        f"  print_full_text: true\n  full_text: |\n    ## Sec. 1\n\n    {EVIL} <b>bold?</b>\n  proposed_use: Neighborhood retail",
    )
    return build(write_case(tmp, text), tmp / "out").folder


def test_case_values_appear_literally_in_text(evil_packet: Path) -> None:
    text = (evil_packet / "newspaper_notice.txt").read_text()
    assert f"Applicant: {EVIL}." in text
    assert f"{EVIL} <b>bold?</b>" in text  # the Markdown source, faithfully
    assert "49" not in text


def test_case_values_are_escaped_in_html(evil_packet: Path) -> None:
    html = (evil_packet / "newspaper_notice.html").read_text()
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }} SMITH &amp; JONES" in html
    assert "&lt;b&gt;bold?&lt;/b&gt;" in html  # raw HTML in Markdown is shown, not obeyed
    import html5lib

    html5lib.HTMLParser(strict=True).parse(html)  # well-formed HTML5


def test_case_values_survive_docx_and_pdf(evil_packet: Path) -> None:
    assert f"Applicant: {EVIL}." in docx_text(evil_packet / "newspaper_notice.docx")
    assert f"{EVIL} <b>bold?</b>" in docx_text(evil_packet / "newspaper_notice.docx")
    assert EVIL in pdf_text(evil_packet / "newspaper_notice.pdf")


@pytest.fixture(scope="module")
def ep_packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(CASES / "ep-2027-za-03.yaml", tmp_path_factory.mktemp("ep")).folder


def test_every_required_clause_is_marked_in_html_and_docx(ep_packet: Path) -> None:
    manifest = json.loads((ep_packet / "manifest.json").read_text())
    assert manifest["ready"] is True
    html = (ep_packet / "newspaper_notice.html").read_text()
    xml = (
        __import__("zipfile")
        .ZipFile(ep_packet / "newspaper_notice.docx")
        .read("word/document.xml")
        .decode()
    )
    for rule_id in (
        "hearing_when_where",
        "ep_hearing_when_where",
        "under_consideration",
        "proposal_statement",
        "intent_and_effect",
        "where_to_examine",
        "may_be_amended",
        "map_in_notice",
        "right_to_be_heard",
    ):
        assert f'data-clause="{rule_id}"' in html
        assert f'w:name="clause_{rule_id}"' in xml
    assert xml.count("<w:bookmarkStart") == xml.count("<w:bookmarkEnd")


def test_pdf_and_docx_read_back_with_every_clause(ep_packet: Path) -> None:
    from generator.models.pack import Channel
    from generator.prepare import prepare

    (doc,) = prepare(CASES / "ep-2027-za-03.yaml").plan.of(Channel.NEWSPAPER)
    for text in (
        pdf_text(ep_packet / "newspaper_notice.pdf"),
        docx_text(ep_packet / "newspaper_notice.docx"),
    ):
        assert "Tuesday, March 16, 2027, at 7:00 p.m." in text
        for binding in doc.clauses:
            assert clause_present(binding.params.checks, text), binding.rule.id


def test_the_drawn_map_is_in_every_format_and_word_uses_real_styles(ep_packet: Path) -> None:
    import zipfile

    html = (ep_packet / "newspaper_notice.html").read_text()
    assert '<img src="map.svg" alt="Map of 1150 Pawtucket Avenue' in html
    svg = (ep_packet / "map.svg").read_text()
    # the labels are kept as comments beside their outlines
    assert "PAWTUCKET AVE" in svg and "200 ft" in svg
    reader = pypdf.PdfReader(ep_packet / "newspaper_notice.pdf")
    assert len(reader.pages) >= 2  # the vector map takes its room in the PDF
    media = [
        n
        for n in zipfile.ZipFile(ep_packet / "newspaper_notice.docx").namelist()
        if n.startswith("word/media/")
    ]
    assert media  # Word gets the PNG, with the map's alt text
    body = zipfile.ZipFile(ep_packet / "newspaper_notice.docx").read("word/document.xml").decode()
    assert 'descr="Map of 1150 Pawtucket Avenue' in body
    styles = {p.style.name for p in docx.Document(ep_packet / "newspaper_notice.docx").paragraphs}
    assert {"Notice Title", "Notice Body", "Notice Heading"} <= styles
    document = docx.Document(ep_packet / "newspaper_notice.docx")
    hard = [r for p in document.paragraphs for r in p.runs if r.font.size or r.font.name]
    assert not hard, "no hard formatting: styles only"


@pytest.fixture(scope="module")
def az_packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three parcels, two hearings, a newspaper: every list a Word draft can hold."""
    return build(CASES / "az-2027-map-01.yaml", tmp_path_factory.mktemp("az")).folder


def test_every_word_draft_numbers_its_pages(ep_packet: Path, az_packet: Path) -> None:
    drafts = sorted([*ep_packet.glob("*.docx"), *az_packet.glob("*.docx")])
    kinds = {d.stem.split("-")[0] for d in drafts}
    assert {"newspaper_notice", "letters", "transmittal", "affidavit_of_mailing"} <= kinds
    assert {"affidavit_of_publication", "certificate_of_posting"} <= kinds
    for draft in drafts:
        # A letter is numbered on its own (each is a section): the file's count means nothing
        # to the owner of one letter.
        merged = draft.stem.startswith(("letters", "transmittal"))
        expected = "Page {PAGE}" if merged else "Page {PAGE} of {NUMPAGES}"
        assert set(footers(draft)) == {expected}, draft.name


def test_word_headings_have_outline_levels_and_stay_with_what_follows(
    ep_packet: Path, evil_packet: Path
) -> None:
    """Word's navigation pane lists them; no heading ends a page alone."""
    levels: dict[str, int | None] = {}
    for draft in sorted([*ep_packet.glob("*.docx"), *evil_packet.glob("*.docx")]):
        found = headings(draft)
        assert found[0][1:] == ("Notice Title", 0, True), draft.name
        for text, style, level, keep in found:
            assert level is not None and keep, f"{draft.name}: {style} {text!r}"
            levels[style] = level
    assert levels["Notice Title"] < levels["Notice Heading"] < levels["Amendment Heading 2"]
    assert ("Sec. 1", "Amendment Heading 2", levels["Amendment Heading 2"], True) in headings(
        evil_packet / "newspaper_notice.docx"
    )  # the amendment's own "## Sec. 1"


def test_parcels_hearings_and_publication_dates_are_word_tables(az_packet: Path) -> None:
    import yaml

    case = yaml.safe_load((CASES / "az-2027-map-01.yaml").read_text())
    notice = az_packet / "newspaper_notice-planning.docx"
    parcels = table_with(notice, "Parcel")
    assert parcels.header == ["Parcel", "Location", "Area", "Present zoning", "Proposed zoning"]
    assert [row[0] for row in parcels.rows] == [p["id"] for p in case["parcels"]]
    for row, parcel in zip(parcels.rows, case["parcels"], strict=True):
        assert parcel["approximate_location"] in row[1]
        assert row[1].startswith(parcel.get("address", parcel["approximate_location"]))
        assert row[2] == f"{parcel['area']['value']:g} acres"
        assert row[3:] == [parcel["current_district"], parcel["proposed_district"]]

    (council,) = [h for h in case["hearings"] if h["body"] == "council"]
    hearings = table_with(notice, "Hearing before")
    assert hearings.header == ["Hearing before", "Date and time", "Place"]
    ((body, when, place),) = hearings.rows
    assert body == council["body_name"]
    assert when.startswith(
        f"{council['date']:%A, %B} {council['date'].day}, {council['date'].year}"
    )
    assert place.startswith(council["place"] + ", ")

    # the same dates the text of the notice gives its newspaper
    line = next(
        x
        for x in (az_packet / "newspaper_notice-planning.txt").read_text().splitlines()
        if x.startswith("Publication date")
    )
    dates = line.split(": ", 1)[1].rstrip(".").split("; ")
    published = table_with(notice, "Insertion")
    assert published.rows == [[str(n), d] for n, d in enumerate(dates, 1)]

    document = docx.Document(notice)
    listed = [p.text for p in document.paragraphs if "List" in p.style.name]
    assert not listed, "lists are tables, not bulleted paragraphs"


def test_every_word_table_repeats_its_header_and_keeps_its_rows_whole(
    ep_packet: Path, az_packet: Path
) -> None:
    drafts = sorted([*ep_packet.glob("*.docx"), *az_packet.glob("*.docx")])
    found = {d.name: tables(d) for d in drafts}
    assert found["letters-planning.docx"]  # each letter's table of parcels
    for name, grids in found.items():
        for grid in grids:
            if grid.style == "Letter Window":  # where the envelope's windows show the addresses
                continue
            assert grid.style == "Notice Table", name
            assert grid.header_repeats and not grid.rows_split, f"{name}: {grid.header}"
            assert grid.rows and all(any(cell.strip() for cell in row) for row in grid.rows), name


def test_the_amendment_text_flows_in_word_as_its_paragraphs_do(tmp_path: Path) -> None:
    """The case's Markdown is wrapped at 100 columns; Word reflows it, with no line breaks."""
    from generator.documents import registry
    from generator.kinds import DocumentKind
    from generator.prepare import prepare

    made = registry.make(
        prepare(CASES / "newport-2027-text-01.yaml"), (DocumentKind.NEWSPAPER_NOTICE,)
    )
    (word,) = [o.data for o in made.outputs if o.path.endswith(".docx")]
    (tmp_path / "notice.docx").write_bytes(word)
    amendment = [
        p.text
        for p in docx.Document(tmp_path / "notice.docx").paragraphs
        if p.style.name.startswith(("Amendment", "List"))
    ]
    assert len(amendment) > 10
    assert not [text for text in amendment if "\n" in text or "  " in text]
    assert any("City of Newport, Rhode Island, revision of 1994" in text for text in amendment)


def test_same_input_same_bytes_and_manifest(tmp_path: Path) -> None:
    a = build(CASES / "ep-2027-za-03.yaml", tmp_path / "a").folder
    b = build(CASES / "ep-2027-za-03.yaml", tmp_path / "b").folder
    assert (a / "manifest.json").read_bytes() == (b / "manifest.json").read_bytes()
    for path in a.iterdir():
        assert path.read_bytes() == (b / path.name).read_bytes(), path.name


def test_an_edited_draft_is_kept_not_overwritten(tmp_path: Path) -> None:
    folder = build(CASES / "ep-2027-za-03.yaml", tmp_path).folder
    edited = folder / "newspaper_notice.docx"
    edited.write_bytes(edited.read_bytes() + b"lawyer's edits")
    again = build(CASES / "ep-2027-za-03.yaml", tmp_path)
    assert again.kept == ["newspaper_notice.edited-1.docx"]
    assert (folder / "newspaper_notice.edited-1.docx").read_bytes().endswith(b"lawyer's edits")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["edited"][0]["path"] == "newspaper_notice.edited-1.docx"
    assert manifest["edited"][0]["draft_of"] == "newspaper_notice.docx"
    # an unedited rebuild keeps the edited copy and makes no second one
    assert build(CASES / "ep-2027-za-03.yaml", tmp_path).kept == []
    assert sorted(p.name for p in folder.glob("*.edited-*")) == ["newspaper_notice.edited-1.docx"]


def test_a_required_map_that_is_missing_makes_the_packet_not_ready(tmp_path: Path) -> None:
    no_map_no_layers = without_gis((CASES / "ep-2027-za-03.yaml").read_text())
    case = write_case(tmp_path, no_map_no_layers)
    result = notices("build", str(case), "--out", str(tmp_path / "out"), "--format", "json")
    assert result.returncode == 1, result.stderr
    manifest = json.loads(result.stdout)
    assert manifest["ready"] is False
    errors = [f for f in manifest["findings"] if f["severity"] == "error"]
    assert errors and errors[0]["rule"] in ("map_in_notice", "ep_map_in_notice")
    assert "map of the change is required" in errors[0]["message"]
    assert "R.I.G.L. § 45-24-53(b)" in errors[0]["citation"]
    assert json.loads((tmp_path / "out" / "case-x" / "manifest.json").read_text())["ready"] is False


def test_manifest_lists_documents_and_versions(ep_packet: Path) -> None:
    manifest = json.loads((ep_packet / "manifest.json").read_text())
    kinds = {(d["kind"], d["format"]) for d in manifest["documents"]}
    assert {("newspaper_notice", f) for f in ("txt", "html", "pdf", "docx")} | {
        ("map", "png")
    } <= kinds
    for d in manifest["documents"]:
        assert (ep_packet / d["path"]).is_file() and len(d["sha256"]) == 64
    assert [p["id"] for p in manifest["packs"]] == ["us-ri", "us-ri-east-providence"]
    assert manifest["tool"]["version"] and manifest["libraries"]["weasyprint"].startswith("70.")
    assert "templates/_base/newspaper_notice.html.j2" in manifest["templates"]


def test_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, runpy; sys.argv = ['notices', '--help']\n"
        "try:\n    runpy.run_module('generator', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('weasyprint', 'docxtpl', 'docx', 'pydantic', 'jinja2', 'shapely', 'geopandas') if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert "HEAVY []" in result.stdout


def test_a_hearing_required_by_several_rules_gets_one_notice(tmp_path: Path) -> None:
    """Before 2024 both the old state text and the local rule require the newspaper notice."""
    text = (
        (CASES / "ep-2027-za-03.yaml").read_text().replace("date: 2027-03-16", "date: 2023-10-17")
    )
    text = text.replace("petition_received: 2027-01-20", "petition_received: 2023-09-01")
    text = text.replace("as_of: 2026-11-29", "as_of: 2023-08-01")
    result = build(write_case(tmp_path, text), tmp_path / "out")
    names = sorted(
        d["path"] for d in result.manifest["documents"] if d["kind"] == "newspaper_notice"
    )
    assert names == [
        "newspaper_notice.docx",
        "newspaper_notice.html",
        "newspaper_notice.pdf",
        "newspaper_notice.txt",
    ]
    assert "Tuesday, October 17, 2023" in (result.folder / "newspaper_notice.txt").read_text()


def test_a_jurisdiction_overrides_only_the_template_files_it_changes(tmp_path: Path) -> None:
    """A folder named for a pack, earlier on the search path, wins for the files it holds."""
    override = tmp_path / "templates" / "us-ri-east-providence"
    override.mkdir(parents=True)
    base = (ROOT / "templates" / "_base" / "phrases.j2").read_text()
    override.joinpath("phrases.j2").write_text(
        base.replace(
            "NOTICE OF {{ terms.hearing|upper }}", "CITY OF EAST PROVIDENCE — LEGAL NOTICE"
        )
    )
    result = notices(
        "build",
        str(CASES / "ep-2027-za-03.yaml"),
        "--out",
        str(tmp_path / "out"),
        env={"NOTICES_TEMPLATES": str(tmp_path / "templates")},
    )
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "ep-2027-za-03"
    assert (
        (folder / "newspaper_notice.txt")
        .read_text()
        .startswith("CITY OF EAST PROVIDENCE — LEGAL NOTICE\n")
    )
    assert "CITY OF EAST PROVIDENCE — LEGAL NOTICE" in docx_text(folder / "newspaper_notice.docx")
    assert (
        "CITY OF EAST PROVIDENCE — LEGAL NOTICE" in (folder / "newspaper_notice.html").read_text()
    )
    manifest = json.loads((folder / "manifest.json").read_text())
    assert any(name.endswith("us-ri-east-providence/phrases.j2") for name in manifest["templates"])
    assert "templates/_base/notice.css" in manifest["templates"]  # the rest still comes from _base
    assert "templates/_base/phrases.j2" not in manifest["templates"]  # shadowed, so not used


def test_an_unreadable_docx_template_is_an_input_error_with_its_file(tmp_path: Path) -> None:
    override = tmp_path / "templates" / "us-ri-east-providence"
    override.mkdir(parents=True)
    (override / "newspaper_notice.docx").write_bytes(b"not a zip file")
    result = notices(
        "build",
        str(CASES / "ep-2027-za-03.yaml"),
        "--out",
        str(tmp_path / "out"),
        env={"NOTICES_TEMPLATES": str(tmp_path / "templates")},
    )
    assert result.returncode == 2, result.stderr
    assert (
        "us-ri-east-providence/newspaper_notice.docx: not a readable DOCX template" in result.stderr
    )
    assert not (tmp_path / "out" / "ep-2027-za-03").exists()


def test_an_internal_error_exits_70_with_the_traceback_in_a_log(tmp_path: Path) -> None:
    from generator.cli import _run

    def broken() -> int:
        raise RuntimeError("a bug")

    assert _run(False, tmp_path / "packet", broken) == 70
    # beside the packet folder, which holds a whole packet or nothing
    assert "RuntimeError: a bug" in (tmp_path / "packet.error.log").read_text()
