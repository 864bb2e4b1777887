"""Every sample case builds into a ready packet whose notices carry every required clause.

The text, the PDF read back with pypdf and the DOCX read back with python-docx are all checked.

The clause checks of the packs (the patterns a linter uses) must recognize our own notices:
a pack whose patterns miss our wording, or a template that drops a clause, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdf
import pytest

from generator.lint.checks import clause_present
from generator.models.pack import Channel, NoticeParams
from generator.packet import build
from generator.prepare import prepare
from generator.render.docx import text_of
from generator.render.filters import clock, long_date

from .conftest import sample_cases
from .word import footers, headings, libreoffice, outline, tables

READERS = {
    "txt": lambda path: path.read_text(),
    "pdf": lambda path: " ".join(page.extract_text() for page in pypdf.PdfReader(path).pages),
    "docx": lambda path: text_of(path.read_bytes()),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("packets")
    return {path.stem: build(path, out).folder for path in sample_cases()}


def _facts(case, hearing) -> dict[str, list[str]]:
    parcels = case.parcels
    return {
        "hearing.date": [long_date(hearing.date)],
        "hearing.start_time": [clock(hearing.start_time)],
        "hearing.place": [hearing.place],
        "hearing.body": [hearing.body_name],
        "case_number": [case.case_number],
        "parcel.id": [p.id for p in parcels],
        "parcel.current_district": [p.current_district for p in parcels if p.current_district],
        "parcel.proposed_district": [p.proposed_district for p in parcels if p.proposed_district],
        "amendment.proposed_use": [case.amendment.proposed_use]
        if case.amendment.proposed_use
        else [],
    }


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_sample_case_builds_ready_with_every_clause_recognized(
    case_path: Path, built: dict[str, Path]
) -> None:
    folder = built[case_path.stem]
    manifest = json.loads((folder / "manifest.json").read_text())
    errors = [f for f in manifest["findings"] if f["severity"] == "error"]
    assert manifest["ready"], errors
    prepared = prepare(case_path)  # as the build prepared it
    cf, the_plan = prepared.case_file, prepared.plan
    newspaper_notices = the_plan.of(Channel.NEWSPAPER)
    if not newspaper_notices:  # e.g. no newspaper of general circulation: posting instead
        assert not any(
            b.params.channel == "newspaper"
            for s in the_plan.snapshots.values()
            for b in s.of(NoticeParams)
        )
    # Every notice the law requires is either in the packet or named for the clerk to give.
    made = {rule for d in manifest["documents"] for rule in d.get("rules", [])}
    by_hand = {f["rule"] for f in manifest["findings"] if f["code"] == "PLAN007"}
    for snap in the_plan.snapshots.values():
        for b in snap.of(NoticeParams):
            if b.params.channel in ("mail", "transmittal") and not made & set(b.ids):
                continue  # nobody to mail in this case (the recipients tests cover who)
            assert made & set(b.ids) or b.rule.id in by_hand, b.rule.id
    for doc in newspaper_notices:
        text = " ".join((folder / f"{doc.name}.txt").read_text().split())
        facts = _facts(cf.case, doc.hearing)
        for binding in doc.clauses:
            checks = binding.params.checks
            where = f"{doc.name}: {binding.rule.id} ({binding.rule.citation})"
            assert clause_present(checks, text), f"{where}: not recognized"
            for fact in checks.facts:
                assert fact in facts, f"{where}: unknown fact {fact!r} in checks"
                for value in facts[fact]:
                    assert " ".join(value.split()) in text, (
                        f"{where}: {fact} {value!r} not in the notice"
                    )


GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_notice_text_matches_the_committed_golden(
    case_path: Path, built: dict[str, Path], update_goldens: bool
) -> None:
    """Golden ad copy: a change in wording shows up as a reviewed diff (`make goldens`)."""
    folder = built[case_path.stem]
    for txt in sorted(folder.glob("newspaper_notice*.txt")):
        golden = GOLDEN / case_path.stem / txt.name
        if update_goldens:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(txt.read_text())
        assert golden.is_file(), (
            f"no golden {golden.relative_to(GOLDEN.parent)}: run `make goldens` and review it"
        )
        assert txt.read_text() == golden.read_text(), f"{txt.name} differs from {golden}"


# Letters and transmittals: one section per recipient, whose pages are numbered from 1.
MAIL_MERGED = re.compile(r"--(remail-)?(letters|transmittal)\b")  # re-mailings too


@pytest.mark.slow
def test_word_drafts_survive_an_editor_round_trip(built: dict[str, Path], tmp_path: Path) -> None:
    """LibreOffice re-saves every DOCX (notices, letters, proofs) and prints it to PDF.

    Bookmarks, text, page numbers, headings (outline level, keep with next) and tables (heading
    row repeated, rows whole) survive the re-save; the PDF numbers its pages "Page x of y", has
    no blank page, and lists the titles in its bookmarks.
    """
    import zipfile

    drafts = sorted(p for folder in built.values() for p in folder.glob("*.docx"))
    jobs = {}
    for draft in drafts:
        copy = tmp_path / "in" / f"{draft.parent.name}--{draft.name}"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(draft.read_bytes())
        jobs[copy.name] = draft
    copies = sorted((tmp_path / "in").iterdir())
    libreoffice(copies, "docx:MS Word 2007 XML", tmp_path / "out", tmp_path / "profile")
    libreoffice(copies, "pdf", tmp_path / "pdf", tmp_path / "profile")

    def marks(path: Path) -> set[str]:
        xml = zipfile.ZipFile(path).read("word/document.xml").decode()
        return set(re.findall(r'w:name="(clause_[a-z0-9_]+)"', xml))

    def shape(path: Path) -> tuple[list, list]:
        return (
            [(text, level, keep) for text, _, level, keep in headings(path)],
            [(t.header, t.rows, t.header_repeats, t.rows_split) for t in tables(path)],
        )

    for name, draft in jobs.items():
        resaved = tmp_path / "out" / name
        assert resaved.is_file(), f"LibreOffice could not open {draft}"
        assert marks(draft) <= marks(resaved), f"{draft}: bookmarks lost in a round trip"
        assert READERS["docx"](draft).split() == READERS["docx"](resaved).split()
        merged = MAIL_MERGED.search(name)  # a section per letter, numbered from its page 1
        assert set(footers(resaved)) == {"Page {PAGE}" if merged else "Page {PAGE} of {NUMPAGES}"}
        assert shape(resaved) == shape(draft), f"{name}: headings or tables changed"

        pdf = tmp_path / "pdf" / name.replace(".docx", ".pdf")
        pages = [page.extract_text() for page in pypdf.PdfReader(pdf).pages]
        number = 0
        for n, text in enumerate(pages, 1):
            number = 1 if merged and re.search(r"Page 1\s*$", text) else number + 1
            footer = f"Page {number}" if merged else f"Page {n} of {len(pages)}"
            assert footer in text, f"{name}: page {n} has no {footer!r}"
            assert text.replace(footer, "").strip(), f"{name}: page {n} is blank"
        if merged:  # every letter starts at page 1
            starts = sum(bool(re.search(r"Page 1\s*$", text)) for text in pages)
            assert starts == len(footers(draft)), name
        assert outline(pdf) == [t for t, _, level, _ in headings(draft) if level == 0], name


@pytest.mark.slow
def test_a_long_table_repeats_its_heading_row_and_keeps_each_row_on_one_page(
    tmp_path: Path,
) -> None:
    """Forty parcels with long legal descriptions: the table runs over pages, printed whole."""
    import pdfplumber

    from .conftest import CASES, without_gis, write_case

    text = without_gis((CASES / "shelby-2027-map-01.yaml").read_text())
    extra = "".join(
        f"  - id: 9999-{n:03d}\n    address: {100 + 2 * n} Test Street\n"
        f"    legal_description: Lot {n}, Block 7, Test Addition to the City of Shelby, according"
        f" to the plat recorded in Plat Book 12, Page 40, Cleveland County Registry, tract"
        f" T{n:03d}\n"
        f"    current_district: R-6 (Residential)\n    proposed_district: B-1 (Neighborhood Business)\n"
        for n in range(40)
    )
    text = text.replace("\nparcels:\n", "\nparcels:\n" + extra, 1)
    from generator.documents import registry
    from generator.kinds import DocumentKind

    made = registry.make(prepare(write_case(tmp_path, text)), (DocumentKind.NEWSPAPER_NOTICE,))
    (word,) = [o.data for o in made.outputs if o.path == "newspaper_notice.docx"]
    (tmp_path / "newspaper_notice.docx").write_bytes(word)
    libreoffice([tmp_path / "newspaper_notice.docx"], "pdf", tmp_path, tmp_path / "profile")
    with pdfplumber.open(tmp_path / "newspaper_notice.pdf") as pdf:
        words = [(n, w["text"]) for n, page in enumerate(pdf.pages) for w in page.extract_words()]
    page_of: dict[str, int] = {}
    for n, text in words:  # the table comes first; the district change names the parcels again
        page_of.setdefault(text, n)
    spanned = sorted({n for n, text in words if re.fullmatch(r"T\d{3}", text)})
    assert len(spanned) >= 2, "the test needs a table over two pages or more"
    for n in spanned:  # the heading row above the first row on every page of the table
        on_page = [text for page, text in words if page == n]
        first_row = next(i for i, text in enumerate(on_page) if text.startswith("9999-"))
        heading_row = 0 if n != spanned[0] else on_page.index("Location") - 1
        assert on_page[heading_row : heading_row + 3] == ["Parcel", "Location", "Area"], n
        assert heading_row < first_row
    for k in range(40):  # a row's first and last words on the same page
        assert page_of[f"9999-{k:03d}"] == page_of[f"T{k:03d}"], f"row of parcel 9999-{k:03d} split"


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_schedule_and_recipients_commands_agree_with_the_packet(
    case_path: Path, built: dict[str, Path], tmp_path: Path
) -> None:
    """One prepare: `notices schedule` and `notices recipients` print what `notices build` wrote."""
    from click.testing import CliRunner

    from generator.cli import app

    folder = built[case_path.stem]
    schedule = CliRunner().invoke(app, ["schedule", str(case_path), "--format", "json"])
    assert schedule.exit_code == 0, schedule.output
    assert schedule.output == (folder / "schedule.json").read_text()
    listed = CliRunner().invoke(app, ["recipients", str(case_path), "--out", str(tmp_path)])
    assert listed.exit_code == 0, listed.output
    for name in ("recipients.csv", "recipients.geojson", "map.svg", "map.png"):
        mine, packet = tmp_path / case_path.stem / name, folder / name
        assert mine.is_file() == packet.is_file(), name
        if packet.is_file():
            assert mine.read_bytes() == packet.read_bytes(), name
