"""Labels and lists: exact Avery 5160 geometry read back from the PDF, counts, long and accented names."""

from __future__ import annotations

import csv
import io
import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from docx.oxml.ns import qn

from generator.documents import firm_mailing_list, labels, mail_merge, mailroom
from generator.inputs import load_case
from generator.lint.checks import clause_present
from generator.models.pack import Channel
from generator.packet import build
from generator.prepare import prepare
from generator.recipients import Recipient
from generator.render import templates
from generator.render.templates import Templates
from generator.rules.loader import resolve

from .conftest import CASES

LONG = "THE ESTATE OF MARGUERITE O'SULLIVAN-ØDEGÅRD & JOSÉ ÁNGEL MUÑOZ REVOCABLE LIVING TRUST DATE"
assert len(LONG) == 90


def person(n: int, name: str | None = None) -> Recipient:
    return Recipient(
        name or f"OWNER {n:03d}",
        [f"{n} MAIN ST"],
        "EAST PROVIDENCE",
        "RI",
        "02914",
        "1234" if n % 2 else "",
    )


def ep_templates() -> Templates:
    """The East Providence pack's templates, whose mail_phrases.j2 words the mail room's files."""
    return templates.for_pack(resolve(load_case(CASES / "ep-2027-za-03.yaml").case.jurisdiction))


TITLE = "Mailing labels (Avery 5160)"


def test_labels_sit_exactly_on_the_avery_5160_grid() -> None:
    people = mailroom.pieces([person(n) for n in range(35)])  # a sheet and a bit
    data, findings = labels.labels_pdf(people, TITLE)
    assert not findings
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == 2
        page = pdf.pages[0]
        assert (page.width, page.height) == (612, 792)
        words = page.extract_words()
        for index in range(30):
            x, top = labels.label_origin(index)
            first = next(
                w
                for w in words
                if w["text"] == "OWNER"
                and abs(w["x0"] - (x + labels.PAD)) < 0.5
                and top <= w["top"] < top + 20
            )
            assert first["bottom"] <= top + labels.LABEL_H  # inside its label
        col_x = sorted({round(w["x0"], 2) for w in words if w["text"] == "OWNER"})
        assert [round(b - a, 2) for a, b in pairwise(col_x)] == [
            198.0,
            198.0,
        ]  # 2.75 in pitch
        assert pdf.pages[1].extract_text().count("OWNER") == 5


def test_a_long_accented_name_is_set_smaller_or_wrapped_never_clipped() -> None:
    people = mailroom.pieces([person(1, LONG)])
    data, findings = labels.labels_pdf(people, TITLE)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
        text = " ".join(pdf.pages[0].extract_text().split())
    assert "O'SULLIVAN-ØDEGÅRD" in text and "MUÑOZ" in text and "DATE" in text
    x, top = labels.label_origin(0)
    assert all(
        x <= c["x0"] and c["x1"] <= x + labels.LABEL_W for c in chars
    )  # nothing runs off the label
    assert all(top <= c["top"] and c["bottom"] <= top + labels.LABEL_H for c in chars)
    assert min(c["size"] for c in chars) >= mailroom.MIN_SIZE
    assert not findings


def test_an_address_that_cannot_fit_is_reported_by_name() -> None:
    huge = Recipient(
        LONG + " " + LONG,
        ["1 A ST", "SUITE 2", "BUILDING 3", "FLOOR 4"],
        "EAST PROVIDENCE",
        "RI",
        "02914",
    )
    _, findings = labels.labels_pdf(mailroom.pieces([huge]), TITLE)
    assert findings and findings[0].code == "MAIL003" and findings[0].severity == "error"
    assert findings[0].message.startswith("THE ESTATE OF MARGUERITE…")  # its first line


def test_no_recipient_no_labels_and_it_says_so() -> None:
    people = mailroom.pieces([Recipient("NOBODY", [], "", "", "")])
    assert people.pieces == []
    assert [f.code for f in people.findings] == ["MAIL001", "MAIL002"]


def test_every_output_counts_the_same_pieces(tmp_path: Path) -> None:
    result = build(CASES / "ep-2027-za-03.yaml", tmp_path)
    folder = result.folder
    recipients = list(csv.DictReader(io.StringIO((folder / "recipients.csv").read_text())))
    listed = list(csv.DictReader(io.StringIO((folder / "mailing_list.csv").read_text())))
    assert len(listed) == len(recipients) == 30
    with pdfplumber.open(folder / "labels.pdf") as pdf:
        assert len(pdf.pages) == 1
        for i, row in enumerate(listed):  # label i holds piece i, in list order
            x, top = labels.label_origin(i)
            box = pdf.pages[0].crop((x, top, x + labels.LABEL_W, top + labels.LABEL_H))
            text = " ".join(box.extract_text().split())
            assert text.startswith(row["name"]) and row["zip"] in text
    with pdfplumber.open(folder / "firm_mailing_list.pdf") as pdf:
        text = "\n".join(p.extract_text() for p in pdf.pages)
        assert "PS Form 3665" in text and "Total number of pieces listed by sender: 30" in text
        assert f"Page 1 of {len(pdf.pages)}" in text and len(pdf.pages) == 3  # 12 lines a page
    kinds = {d["kind"] for d in json.loads((folder / "manifest.json").read_text())["documents"]}
    assert {"labels", "mailing_list", "firm_mailing_list"} <= kinds


@pytest.mark.parametrize("certified", [True, False])
def test_the_firm_list_follows_the_mail_class(certified: bool) -> None:
    data = firm_mailing_list.firm_mailing_pdf(
        mailroom.pieces([person(n) for n in range(3)]),
        sender=["City"],
        certified=certified,
        title="t",
        words=ep_templates().phrases("mail_phrases.j2"),
    )
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = pdf.pages[0].extract_text()
    assert ("PS Form 3877" in text) == certified and ("Article number" in text) == certified


def test_every_recipient_gets_a_letter_with_the_required_clauses(tmp_path: Path) -> None:

    import pypdf

    result = build(CASES / "ep-2027-za-03.yaml", tmp_path)
    listed = list(csv.DictReader(io.StringIO((result.folder / "mailing_list.csv").read_text())))
    reader = pypdf.PdfReader(result.folder / "letters.pdf")
    per_letter = len(reader.pages) // len(listed)
    assert len(reader.pages) == per_letter * len(listed) and per_letter >= 1
    letters_plan = prepare(CASES / "ep-2027-za-03.yaml").plan.of(Channel.MAIL)[0]
    for k in (0, len(listed) - 1):  # the first and the last letter
        pages = reader.pages[k * per_letter : (k + 1) * per_letter]
        text = " ".join(" ".join(p.extract_text() for p in pages).split())
        assert listed[k]["name"] in text and f"page {per_letter} of {per_letter}" in text
        assert "Tuesday, March 16, 2027, at 7:00 p.m." in text
        for (
            binding
        ) in letters_plan.clauses:  # R.I.G.L. § 45-24-53(b): the notice's content, and the map
            assert clause_present(binding.params.checks, text), binding.rule.id
    word = word_letters(result.folder / "letters.docx")
    assert len(word) == len(listed)  # one Word letter per recipient, each a section of its own
    for k, (address, text) in enumerate(word):
        assert address[0] == listed[k]["name"] and listed[k]["zip"] in address[-1]
        for binding in letters_plan.clauses:
            assert clause_present(binding.params.checks, text), (k, binding.rule.id)
    manifest = json.loads((result.folder / "manifest.json").read_text())
    letters_doc = next(d for d in manifest["documents"] if d["kind"] == "letters")
    assert "mailed_notice_map_change" in letters_doc["rules"]
    assert not any(
        f["code"] == "PLAN007" and f["rule"] == "mailed_notice_map_change"
        for f in manifest["findings"]
    )


def test_the_address_sits_in_the_envelope_window_and_long_parcel_lists_overflow(
    tmp_path: Path,
) -> None:
    from weasyprint import HTML

    body = HTML(string="<html lang=en><body><p>Body of the letter.</p></body></html>").write_pdf()
    owner = person(7, LONG)
    many = Recipient(
        "BIG LANDLORD LLC",
        ["1 MAIN ST"],
        "EAST PROVIDENCE",
        "RI",
        "02914",
        parcels=[f"107-{n}-1" for n in range(200)],
    )
    tpl = ep_templates()
    greet = mail_merge.Greeter(
        tpl.phrases("letter_phrases.j2", municipality="City of East Providence"),
        tpl.phrases("mail_phrases.j2"),
        False,
        "R.I.G.L. § 45-24-53(b)",
    )
    pieces = mailroom.pieces([owner, many]).pieces
    assert greet(owner) == greet(many)  # both owners: one shared body
    made = mail_merge.combine(
        {greet(owner): body}, pieces, greet, sender=["City Hall"], duplex=True
    )
    # One page each; the big one's 200 parcels take 2 more (3 columns of 60 a page, all on
    # the paper); duplex pads the first letter and the second.
    assert made.letters == 2 and made.pages == 6
    with pdfplumber.open(io.BytesIO(made.pdf)) as pdf:
        x, y, w, h = (v * 72 for v in mail_merge.ADDRESS_AT)
        window = " ".join(pdf.pages[0].crop((x, y, x + w, y + h)).extract_text().split())
        assert "O'SULLIVAN-ØDEGÅRD" in window and "EAST PROVIDENCE RI 02914-1234" in window
        assert pdf.pages[1].extract_text().strip() == ""  # the blank back of a one-page letter
        assert "Parcels of BIG LANDLORD LLC near the proposal (200)" in pdf.pages[3].extract_text()


def test_a_large_scale_nc_rezoning_is_offered_the_half_page_ad_alternative() -> None:
    from generator.plan import plan

    cf = load_case(CASES / "shelby-2027-map-01.yaml")
    facts = cf.case.facts.model_copy(update={"properties_affected": 64, "distinct_owners": 57})
    case = cf.case.model_copy(update={"facts": facts})
    offers = [f for f in plan(case, resolve(case.jurisdiction)).findings if f.code == "PLAN008"]
    assert {f.rule for f in offers} >= {"large_scale_published_notice"}
    assert "options.large_scale_alternative: true" in offers[0].message
    small = plan(cf.case, resolve(case.jurisdiction)).findings  # 2 properties: nothing to offer
    assert not [
        f for f in small if f.code == "PLAN008" and f.rule == "large_scale_published_notice"
    ]


def test_transmittals_go_to_the_airport_and_the_abutting_planning_agency(tmp_path: Path) -> None:
    import pypdf

    result = build(CASES / "az-2027-map-01.yaml", tmp_path)
    for body in ("planning", "council"):
        reader = pypdf.PdfReader(result.folder / f"transmittal-{body}.pdf")
        text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
        assert (
            "Luke Air Force Base" in text
            and "Maricopa County Planning and Development Department" in text
        )
        assert "As A.R.S. § 9-462.04(A)(2) requires" in text and "Your parcel" not in text
    manifest = json.loads((result.folder / "manifest.json").read_text())
    assert not [
        f
        for f in manifest["findings"]
        if f["code"] == "PLAN007" and f["rule"] == "military_airport_notice"
    ]


def test_one_file_per_letter_on_request(tmp_path: Path) -> None:
    import pypdf

    from .conftest import write_case

    text = (
        (CASES / "ep-2027-za-03.yaml")
        .read_text()
        .replace("options:", "options:\n  letter_files: true")
    )
    if "letter_files" not in text:
        text += "options: {letter_files: true}\n"
    result = build(write_case(tmp_path, text), tmp_path / "out")
    files = sorted((result.folder / "letters").glob("*.pdf"))
    combined = pypdf.PdfReader(result.folder / "letters.pdf")
    assert len(files) == 30 and sum(len(pypdf.PdfReader(f).pages) for f in files) == len(
        combined.pages
    )
    assert (
        files[0].name.startswith("00001-")
        and "BARNES" in pypdf.PdfReader(files[0]).pages[0].extract_text()
    )
    listed = {d["path"] for d in result.manifest["documents"]}
    assert all(f"letters/{f.name}" in listed for f in files)


# A #10 double-window envelope and a letter folded in thirds (inches from the page's top-left):
# what the address window shows, the clear space USPS asks around the address, the return window.
WINDOW = (0.9, 2.0, 5.3, 3.1)  # left, top, right, bottom
CLEAR = 0.125
SAFE = (WINDOW[0] + CLEAR, WINDOW[1] + CLEAR, WINDOW[2] - CLEAR, WINDOW[3] - CLEAR)
RETURN_WINDOW = (0.5, 0.5, 4.0, 1.29)
LABEL = re.compile(r"page (\d+) of (\d+)$")


def points(box: tuple[float, float, float, float]) -> tuple[float, ...]:
    return tuple(v * 72 for v in box)


def window_of(page: Any) -> tuple[list[str], list[str]]:
    """The address a letter's first page shows through the window, and its return address.

    Fails when anything else is in the window, anything in it is less than 1/8 in from an edge,
    or anything above the letter's text is neither address nor beside the window.
    """
    in_window = page.crop(points(WINDOW)).chars
    clear = page.within_bbox(points(SAFE))
    assert len(in_window) == len(clear.chars), "something in the window is not the address"
    sender = page.within_bbox(points(RETURN_WINDOW))
    assert len(page.crop(points(RETURN_WINDOW)).chars) == len(sender.chars)
    for c in page.chars:
        if c["top"] < (WINDOW[3] + CLEAR) * 72 and c["text"].strip():
            placed = c in clear.chars or c in sender.chars or c["x0"] >= (WINDOW[2] + CLEAR) * 72
            assert placed, f"{c['text']!r} at {c['x0'] / 72:.2f}, {c['top'] / 72:.2f} in"
    return clear.extract_text().splitlines(), sender.extract_text().splitlines()


def pdf_letters(path: Path) -> list[tuple[list[Any], str]]:
    """Each letter of a combined PDF (its pages and its text), cut where its page label restarts."""
    out: list[tuple[list[Any], str]] = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            found = LABEL.search(text.splitlines()[-1])
            assert found, f"page {page.page_number} has no page label"
            if found[1] == "1":
                out.append(([], ""))
            pages, before = out[-1]
            out[-1] = ([*pages, page], f"{before}\n{text}")
            assert int(found[1]) == len(out[-1][0]) and int(found[2]) >= int(found[1])
        for pages, _ in out:  # "Page x of y": y is this letter's own count
            last = LABEL.search(pages[-1].extract_text().splitlines()[-1])
            assert last and int(last[1]) == int(last[2]) == len(pages)
        return [(pages, " ".join(text.split())) for pages, text in out]


def word_letters(path: Path) -> list[tuple[list[str], str]]:
    """Each letter of a letters.docx: the address in its window table, and its text."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    document = docx.Document(path)
    out: list[tuple[list[str], str]] = []
    for child in document.element.body.iterchildren():
        if child.tag.endswith("}tbl"):
            table = Table(child, document)
            if table.style.name == "Letter Window":  # a letter starts with its window
                cell = table.rows[2].cells[0]
                out.append(("\n".join(p.text for p in cell.paragraphs).splitlines(), ""))
                continue
            words = " ".join(c.text for row in table.rows for c in row.cells)
        elif child.tag.endswith("}p"):
            words = Paragraph(child, document).text
        else:
            continue
        address, text = out[-1]
        out[-1] = (address, f"{text} {words}".strip())
    return out


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The Oklahoma and Arizona map samples: letters for two hearings, and transmittals."""
    out = tmp_path_factory.mktemp("mailed")
    return {
        name: build(CASES / f"{name}.yaml", out).folder
        for name in ("ok-2027-map-01", "az-2027-map-01")
    }


@pytest.mark.parametrize(
    "name, document",
    [
        ("ok-2027-map-01", "letters-planning.pdf"),
        ("az-2027-map-01", "letters-council.pdf"),
        ("az-2027-map-01", "transmittal-planning.pdf"),
    ],
)
def test_every_letter_shows_its_address_and_nothing_else_in_the_envelope_window(
    mailed: dict[str, Path], name: str, document: str
) -> None:
    letters = pdf_letters(mailed[name] / document)
    assert letters
    for pages, text in letters:
        address, sender = window_of(pages[0])
        owner = LABEL.sub("", pages[0].extract_text().splitlines()[-1]).rstrip(" —")
        assert " ".join(address).startswith(owner) and re.search(
            r" [A-Z]{2} \d{5}(-\d{4})?$", address[-1]
        )
        assert sender[0].startswith(("City of", "Town of")) and len(sender) >= 3
        if "Your parcel" in text:  # beside the window, never behind it
            words = pages[0].search("Your parcel")
            assert words and all(w["x0"] >= (WINDOW[2] + CLEAR) * 72 for w in words)


def test_a_letter_takes_the_pages_its_content_needs_and_never_leaves_the_signature_alone(
    mailed: dict[str, Path],
) -> None:
    """The Oklahoma letters ran to three pages, the closing alone on the third."""
    letters = pdf_letters(mailed["ok-2027-map-01"] / "letters-planning.pdf")
    for pages, _ in letters:
        assert len(pages) == 2
        last = pages[-1].extract_text().splitlines()
        closing = next(i for i, line in enumerate(last) if line.startswith("Sincerely"))
        assert closing >= 2, "the closing stands alone at the top of its page"


def test_the_case_number_is_printed_once_in_a_letter(mailed: dict[str, Path]) -> None:
    """The Arizona case's title ends "(RZ-2027-01)"; the subject line already names the case."""
    for document in ("letters-planning.pdf", "transmittal-planning.pdf"):
        for _, text in pdf_letters(mailed["az-2027-map-01"] / document):
            assert text.count("RZ-2027-01") == 1 and "Case No. RZ-2027-01" in text


def test_the_transmittal_says_what_the_amendment_changes(mailed: dict[str, Path]) -> None:
    for _, text in pdf_letters(mailed["az-2027-map-01"] / "transmittal-council.pdf"):
        assert "on a proposed rezoning, an amendment of its Official Zoning Map." in text
        assert "zoning ordinance" not in text


@pytest.mark.parametrize(
    "kind, words",
    [
        (
            "map",
            "a legislative hearing on a proposed rezoning, an amendment of its Official Zoning Map.",
        ),
        (
            "text",
            "a legislative hearing on a proposed amendment of the text of its Unified Development Ordinance.",
        ),
        ("both", "the text of its Unified Development Ordinance and of its Official Zoning Map."),
    ],
)
def test_a_transmittal_takes_its_words_from_the_amendment_and_the_pack(
    kind: str, words: str
) -> None:
    case = load_case(CASES / "shelby-2027-map-01.yaml").case
    pack = resolve(case.jurisdiction)
    tpl = templates.for_pack(pack)
    amendment = case.amendment.model_copy(update={"kind": kind})
    greet = mail_merge.Greeter(
        tpl.phrases(
            "letter_phrases.j2",
            municipality=case.municipality,
            the_municipality=case.the_municipality,
            amendment=amendment,
            terms=pack.terms,
        ),
        tpl.phrases("mail_phrases.j2"),
        True,
        "G.S. 160D-602",
    )
    council = Recipient(
        "Cleveland County Board of Commissioners",
        ["1 Main St"],
        "Shelby",
        "NC",
        "28150",
        kind="council",
    )
    salutation, reason = greet(council)
    assert salutation == "To the Cleveland County Board of Commissioners:"
    assert reason.startswith(
        "As G.S. 160D-602 requires, the City of Shelby transmits"
    ) and reason.endswith(words)


def test_the_word_letter_holds_its_address_in_the_window_whatever_is_edited_above(
    mailed: dict[str, Path],
) -> None:
    """Rows of exact height put the address where the window is; each letter is a section."""
    import docx
    from docx.enum.table import WD_ROW_HEIGHT_RULE

    path = mailed["az-2027-map-01"] / "transmittal-planning.docx"
    document = docx.Document(path)
    sections = document.sections
    assert len(sections) == len(word_letters(path)) == 2
    for section in sections:
        assert section.different_first_page_header_footer  # nothing above the return address
        numbering = section._sectPr.find(qn("w:pgNumType"))
        assert numbering is not None and numbering.get(qn("w:start")) == "1"  # page 1 per letter
    for table in [t for t in document.tables if t.style.name == "Letter Window"]:
        rows = table.rows
        assert all(r.height_rule == WD_ROW_HEIGHT_RULE.EXACTLY for r in rows)
        sender_top = sections[0].top_margin.inches
        assert (
            RETURN_WINDOW[1] <= sender_top < sender_top + rows[0].height.inches <= RETURN_WINDOW[3]
        )
        top = sender_top + sum(r.height.inches for r in rows[:2])
        bottom = top + rows[2].height.inches
        assert SAFE[1] <= top and bottom <= SAFE[3]
        left = sections[0].left_margin.inches
        width = sections[0].page_width.inches - left - sections[0].right_margin.inches
        for p in rows[2].cells[0].paragraphs:
            fmt = (
                p.paragraph_format
                if p.paragraph_format.left_indent is not None
                else p.style.paragraph_format
            )
            assert SAFE[0] <= left + fmt.left_indent.inches
            assert left + width - fmt.right_indent.inches <= SAFE[2]
        sender = rows[0].cells[0].paragraphs
        assert sender[0].text == "Town of Saguaro Wells" and len(sender) >= 3


@pytest.mark.slow
def test_the_word_letters_keep_the_window_layout_through_libreoffice(
    mailed: dict[str, Path], tmp_path: Path
) -> None:
    """Rendered by LibreOffice, and rendered again after LibreOffice re-saves the file."""
    import shutil
    import subprocess

    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice is needed: apt-get install libreoffice-writer-nogui"
    folder = mailed["az-2027-map-01"]
    profile = f"-env:UserInstallation=file://{tmp_path}/profile"

    def convert(source: Path, to: str, out: Path) -> Path:
        subprocess.run(
            [soffice, "--headless", profile, "--convert-to", to, "--outdir", str(out), str(source)],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        return out / f"{source.stem}.{to.split(':')[0]}"

    expected = [
        " ".join(window_of(pages[0])[0])
        for pages, _ in pdf_letters(folder / "transmittal-planning.pdf")
    ]
    draft = folder / "transmittal-planning.docx"
    resaved = convert(draft, "docx:MS Word 2007 XML", tmp_path / "resaved")
    for source in (draft, resaved):
        rendered = convert(source, "pdf", tmp_path / source.parent.name)
        with pdfplumber.open(rendered) as pdf:
            firsts = []
            for page in pdf.pages:
                text = page.extract_text()
                number = int(re.search(r"Page (\d+)$", text.splitlines()[-1])[1])
                if "Town of Saguaro Wells" in text.splitlines()[0]:  # a letter's first page
                    assert number == 1
                    firsts.append(" ".join(window_of(page)[0]))
                if text.splitlines()[0].startswith("Sincerely"):
                    raise AssertionError(
                        f"{source.name}: the closing alone on page {page.page_number}"
                    )
            assert firsts == expected, source


def test_word_letters_are_compressed_as_they_are_made_not_held_all_at_once() -> None:
    """Issue 21: the Word merge of a big mailing held every letter's XML several times over.

    2,000 letters are ~32 MB of document.xml; the merge writes each into the zip as it is made,
    so it never holds more than a few letters (and the compressed file) at once.
    """
    import tracemalloc
    import zipfile

    from generator.render.filters import long_date

    prepared = prepare(CASES / "ep-2027-za-03.yaml")
    tpl = templates.for_pack(prepared.pack)
    doc = prepared.plan.of(Channel.MAIL)[0]
    case = prepared.case
    greet = mail_merge.Greeter(
        tpl.phrases("letter_phrases.j2", municipality=case.municipality),
        tpl.phrases("mail_phrases.j2"),
        False,
        doc.citations,
    )
    pieces = [person(n) for n in range(2000)]
    date = long_date(doc.dated or doc.hearing.date)
    rendered = {
        g: mail_merge._word_letter(prepared, tpl, mail_merge._context(prepared, tpl, doc, date, g))
        for g in dict.fromkeys(map(greet, pieces))
    }
    tracemalloc.start()
    try:
        word = mail_merge.combine_word(rendered, pieces, greet)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    xml = zipfile.ZipFile(io.BytesIO(word)).read("word/document.xml")
    assert xml.count(b"<w:sectPr") == 2000 and b"OWNER 1999" in xml
    assert peak < len(xml) / 2, f"peak {peak / 1e6:.0f} MB for {len(xml) / 1e6:.0f} MB of letters"
