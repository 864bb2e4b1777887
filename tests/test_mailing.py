"""Labels and lists: exact Avery 5160 geometry read back from the PDF, counts, long and accented names."""

from __future__ import annotations

import csv
import io
import json
from itertools import pairwise
from pathlib import Path

import pdfplumber
import pytest

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
    assert findings and findings[0].code == "MAIL003" and LONG in findings[0].message


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
    import docx

    word = docx.Document(result.folder / "letters.docx")
    starts = [i for i, p in enumerate(word.paragraphs) if p.style.name == "Letter Address"]
    assert len(starts) == len(listed)  # one Word letter per recipient, each on a new page
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(word.paragraphs)
        text = " ".join(" ".join(p.text for p in word.paragraphs[start:end]).split())
        assert text.startswith(listed[k]["name"])
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
    assert (
        made.letters == 2 and made.pages == 4
    )  # one page each; the big one overflows to 2; duplex pads the first
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
