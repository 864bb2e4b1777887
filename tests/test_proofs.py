"""The proofs of notice, read as the forms a court accepts.

Affidavits and certificates of mailing, of actual notice, of publication and of posting, and the
firm mailing list: one per mailing or publication wave, every slot filled from the case or left
as a labelled blank, sworn wording only with a jurat, the list of recipients in plain words and
kept whole across pages.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from docx import Document
from pypdf import PdfReader

from generator import recipients, schedule
from generator.documents import firm_mailing_list, mailroom, proof, proof_of_mailing, registry
from generator.documents.base import Output
from generator.kinds import DocumentKind
from generator.models.pack import Channel
from generator.paths import JURISDICTIONS
from generator.prepare import Prepared, prepare
from tests.conftest import CASES, write_case

PROOFS = (
    *proof_of_mailing.KINDS,
    DocumentKind.AFFIDAVIT_OF_PUBLICATION,
    DocumentKind.CERTIFICATE_OF_POSTING,
    DocumentKind.FIRM_MAILING_LIST,
)


def make(path: Path) -> tuple[list[Output], recipients.RecipientList]:
    """The proofs of mailed notice of a prepared case, and its recipients."""
    prepared = prepare(path)
    built = registry.make(prepared, kinds=proof_of_mailing.KINDS)
    return list(built.outputs), prepared.recipients


def pdf_text(data: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.split())


def docx_text(data: bytes) -> str:
    """Every paragraph of a Word file, its tables' cells included, in document order."""
    doc = Document(io.BytesIO(data))
    parts = []
    for block in doc.element.body.iterchildren():
        if block.tag.endswith("}p"):
            parts.append("".join(t.text or "" for t in block.iter() if t.tag.endswith("}t")))
        elif block.tag.endswith("}tbl"):
            parts += ["".join(t.text or "" for t in cell.iter() if t.tag.endswith("}t"))
                      for cell in block.iter() if cell.tag.endswith("}tc")]  # fmt: skip
    return " ".join(" ".join(parts).split())


def by_path(outputs: list[Output]) -> dict[str, bytes]:
    return {o.path: o.data for o in outputs}


@pytest.fixture(scope="module")
def ep() -> tuple[list, recipients.RecipientList]:
    return make(CASES / "ep-2027-za-03.yaml")


def test_affidavit_of_mailing(ep: tuple[list, recipients.RecipientList]) -> None:
    outputs, found = ep
    files = by_path(outputs)
    assert sorted(files) == ["affidavit_of_mailing.docx", "affidavit_of_mailing.pdf"]
    rules = {o.rules for o in outputs}
    assert rules == {("affidavit_of_mailing", "ep_affidavit_of_mailing")}
    n = len(found.recipients)
    for text in (
        pdf_text(files["affidavit_of_mailing.pdf"]),
        docx_text(files["affidavit_of_mailing.docx"]),
    ):
        assert "AFFIDAVIT OF MAILING" in text
        assert "Leah Stoddard" in text
        assert "first-class mail" in text
        assert f"United States mail {n} envelopes" in text
        assert "as of November 2, 2026" in text
        assert "owners of record of parcels within 200 feet of the subject parcel" in text
        assert "R.I.G.L. § 45-24-53(b); East Providence Code § 19-74(5)" in text
        assert "Subscribed and sworn to before me on" in text
        assert "Notary Public" in text and "My commission expires" in text
        assert "not later than Tuesday, March 2, 2027" in text
        assert "Exhibit B" in text
        for r in found.recipients:
            assert " ".join(r.name.split()) in text


def test_same_input_same_bytes(ep: tuple[list, recipients.RecipientList]) -> None:
    again, _ = make(CASES / "ep-2027-za-03.yaml")
    assert by_path(again) == by_path(ep[0])


def test_certificate_of_mailing() -> None:
    outputs, found = make(CASES / "shelby-2027-map-01.yaml")
    files = by_path(outputs)
    assert sorted(files) == ["certificate_of_mailing.docx", "certificate_of_mailing.pdf"]
    for text in (
        pdf_text(files["certificate_of_mailing.pdf"]),
        docx_text(files["certificate_of_mailing.docx"]),
    ):
        assert "CERTIFICATE OF MAILING" in text
        assert "To the Shelby City Council" in text
        assert "G.S. 160D-602(a)" in text
        assert "conclusive in the absence of fraud" in text
        assert "Teresa M. Pruette" in text
        assert f"postage prepaid, {len(found.recipients)} notices" in text


def test_certificate_of_actual_notice_keeps_non_ascii() -> None:
    outputs, _ = make(CASES / "shelby-2027-cd-01.yaml")
    files = by_path(outputs)
    assert "certificate_of_mailing.pdf" in files
    for text in (
        pdf_text(files["certificate_of_actual_notice.pdf"]),
        docx_text(files["certificate_of_actual_notice.docx"]),
    ):
        assert "CERTIFICATE OF ACTUAL NOTICE" in text
        assert "Núñez Ødegård Développement, LLC" in text
        assert "MUÑOZ JOSÉ ÁNGEL" in text
        assert "G.S. 160D-602(d)" in text
        assert "actual notice of the proposed amendment and a copy of the notice" in text


def test_values_are_escaped(tmp_path: Path) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace(
        "signer: {name: Leah Stoddard, title: City Clerk}",
        'signer: {name: "O\'Neil & Sons <Realty>", title: City Clerk}',
    )
    assert "O'Neil" in text
    outputs, _ = make(write_case(tmp_path, text))
    files = by_path(outputs)
    assert "O'Neil & Sons <Realty>" in pdf_text(files["affidavit_of_mailing.pdf"])
    assert "O'Neil & Sons <Realty>" in docx_text(files["affidavit_of_mailing.docx"])


def test_no_mailed_notice_no_proofs(tmp_path: Path) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace(
        "  initiated_by: owner\n", "  initiated_by: owner\n  affects_districts_generally: true\n"
    )
    assert "affects_districts_generally" in text
    outputs, _ = make(write_case(tmp_path, text))
    assert outputs == []


def planned(path: Path) -> Prepared:
    """The case prepared as the build prepares it."""
    return prepare(path)


def made(prepared: Prepared, kind: DocumentKind) -> dict[str, bytes]:
    """The files the builder of `kind` makes of the prepared case."""
    return by_path(list(registry.make(prepared, kinds=(kind,)).outputs))


def long(day: str) -> str:
    from datetime import date

    d = date.fromisoformat(day)
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"


@pytest.mark.parametrize("case", ["ep-2027-za-03", "newport-2027-map-01", "ok-2027-map-01"])
def test_affidavit_of_publication_prefills_the_scheduled_issues(case: str) -> None:
    prepared = planned(CASES / f"{case}.yaml")
    cf, deadlines = prepared.case_file, list(prepared.deadlines)
    files = made(prepared, DocumentKind.AFFIDAVIT_OF_PUBLICATION)
    doc = prepared.plan.of(Channel.NEWSPAPER)[0]
    rules = tuple(i for b in doc.notices for i in b.ids)
    issues = schedule.issues_of(deadlines, rules, doc.hearing)
    assert issues, "the schedule names the issues the notice runs in"
    name = doc.name.replace("newspaper_notice", "affidavit_of_publication")
    for text in (pdf_text(files[f"{name}.pdf"]), docx_text(files[f"{name}.docx"])):
        assert "AFFIDAVIT OF PUBLICATION" in text
        assert cf.case.case_number in text and cf.case.newspaper.name in text
        assert doc.hearing.body_name in text and doc.hearing.place in text
        for day in issues:
            assert long(day.isoformat()) in text
        assert f"{len(issues)} times" in text or (len(issues) == 1 and "1 time" in text)
        assert "Subscribed and sworn" in text  # the packs want it notarized


def test_affidavit_of_posting_lists_the_ten_places_and_is_sworn() -> None:
    """A.R.S. § 9-462.04(A)(1) ten public places; the sample town wants a notarized affidavit."""
    prepared = planned(CASES / "az-2027-posting-01.yaml")
    cf, deadlines = prepared.case_file, prepared.deadlines
    files = made(prepared, DocumentKind.CERTIFICATE_OF_POSTING)
    assert "certificate_of_posting-posting_notice-planning.pdf" in files
    assert "certificate_of_posting-sign-council.docx" in files
    places = [p.name for p in cf.case.posting_places if p.kind == "public_place"]
    assert len(places) >= 8
    post_by = next(
        d.latest
        for d in deadlines
        if d.rule == "public_places_posting" and d.hearing.startswith("planning")
    )
    for text in (
        pdf_text(files["certificate_of_posting-posting_notice-planning.pdf"]),
        docx_text(files["certificate_of_posting-posting_notice-planning.docx"]),
    ):
        assert "AFFIDAVIT OF POSTING" in text and "Subscribed and sworn" in text
        assert "RZ-2027-04" in text and "June 10, 2027" in text
        for place in places:
            assert place in text
        assert long(post_by.isoformat()) in text
        assert "10 places" in text and "A.R.S. § 9-462.04(A)(1)" in text
        assert "Photo 1" in text
        assert "Authority: Town of Saguaro Wells Zoning Code § 4-2-3(D)." in text


def test_certificate_of_posting_for_the_website_and_clerk_office() -> None:
    """R.I.G.L. § 45-24-53(a): clerk's office and one other building, and the website; no oath."""
    prepared = planned(CASES / "newport-2027-map-01.yaml")
    cf = prepared.case_file
    files = made(prepared, DocumentKind.CERTIFICATE_OF_POSTING)
    assert sorted(files) == [
        "certificate_of_posting-posting_notice.docx",
        "certificate_of_posting-posting_notice.pdf",
        "certificate_of_posting-website_notice.docx",
        "certificate_of_posting-website_notice.pdf",
    ]
    web = pdf_text(files["certificate_of_posting-website_notice.pdf"])
    assert "CERTIFICATE OF POSTING" in web and "Notary" not in web
    assert "https://www.cityofnewport.com" in web.replace(" ", "") and "Photo 1" not in web
    board = docx_text(files["certificate_of_posting-posting_notice.docx"])
    buildings = [p.name for p in cf.case.posting_places if p.kind != "website"]
    for name in buildings:
        assert name in board
    assert "R.I.G.L. § 45-24-53(a)" in board


# --- Issue 13: the proofs read as the forms a court accepts -------------------------------------

SAMPLES = (
    "ok-2027-map-01",
    "az-2027-map-01",
    "az-2027-posting-01",
    "ep-2027-za-03",
    "shelby-2027-cd-01",
    "newport-2027-text-01",
)


@pytest.fixture(scope="module")
def packets() -> dict[str, tuple[Prepared, dict[str, bytes]]]:
    """Every proof (and firm mailing list) of the samples that have each kind, as built."""
    out = {}
    for case in SAMPLES:
        prepared = prepare(CASES / f"{case}.yaml")
        out[case] = (prepared, by_path(list(registry.make(prepared, kinds=PROOFS).outputs)))
    return out


def texts(packets: dict, *, docx: bool = True) -> dict[str, str]:
    """`case/file` → the text of every proof PDF (and DOCX) of the samples."""
    out = {}
    for case, (_, files) in packets.items():
        for name, data in files.items():
            if name.endswith(".pdf"):
                out[f"{case}/{name}"] = pdf_text(data)
            elif docx and name.endswith(".docx"):
                out[f"{case}/{name}"] = docx_text(data)
    return out


def test_a_certificate_is_addressed_to_a_body_not_to_what_it_certifies(packets: dict) -> None:
    """The Oklahoma certificate printed `certify_to` as its addressee: "To the date of deposit…"."""
    _, files = packets["ok-2027-map-01"]
    for name, body in (
        ("certificate_of_mailing-planning", "the Planning Commission of the City of Sample City"),
        ("certificate_of_mailing-council", "the City Council of the City of Sample City"),
    ):
        for text in (pdf_text(files[f"{name}.pdf"]), docx_text(files[f"{name}.docx"])):
            assert f"To {body}:" in text
            assert "To the date of deposit" not in text


@pytest.mark.parametrize(
    "slot",
    ["(the local government)", "(sample)", "generated", "((", "))", "{{", "{%", "None", "dwithin"],
)
def test_no_slot_or_placeholder_shows_through(packets: dict, slot: str) -> None:
    shown = [name for name, text in texts(packets).items() if slot in text]
    assert not shown, f"{slot!r} in {shown}"


def test_every_blank_in_a_sentence_says_what_to_write(packets: dict) -> None:
    """A blank in running text is followed by its label: "On ____ (date of deposit, …)"."""
    every = texts(packets)
    for name, text in every.items():
        if "firm_mailing_list" in name:
            continue
        # A blank alone on its line (signature, notary), after a label ("Date: ____") or in a
        # table cell is labelled by what surrounds it; one inside a sentence (after "I," or
        # "on") is followed by what to write: "On ____ (date of deposit, …)".
        for m in re.finditer(r"(\S+) _{6,}", text):
            before = m[1]
            if before.endswith(",") or before in ("on", "at", "the", "by", "of"):
                assert text[m.end() : m.end() + 2] == " (", f"{name}: blank after {before!r}"
    ep = every["ep-2027-za-03/affidavit_of_mailing.pdf"]
    assert re.search(r"3\. On _+ \(date of deposit, not later than Tuesday, March 2, 2027", ep)
    assert re.search(r"at _+ \(place of deposit\)", ep)
    publication = every["ep-2027-za-03/affidavit_of_publication.pdf"]
    assert re.search(r"I, _+ \(name\), being first duly sworn", publication)
    assert re.search(r"I am the _+ \(position\) of The East Providence Post", publication)
    posting = every["az-2027-posting-01/certificate_of_posting-sign-council.docx"]
    assert re.search(r"I, _+ \(name of the person who posted the notice\), being first", posting)
    actual = every["shelby-2027-cd-01/certificate_of_actual_notice.pdf"]
    assert re.search(r"received on _+ \(date\) actual notice", actual)


def test_what_the_law_requires_of_a_posting_reads_whatever_the_packs_grammar(
    packets: dict,
) -> None:
    """A pack's place ("public places in the municipality") once read "to be posted public places"."""
    every = texts(packets)
    places = every["az-2027-posting-01/certificate_of_posting-posting_notice-council.pdf"]
    assert "Where: public places in the municipality (10 places)" in places
    assert "When: at least 15 days before each hearing; not later than Monday, June 21, 2027" in (
        places
    )
    sign = every["shelby-2027-cd-01/certificate_of_posting-sign.docx"]
    assert "Where: prominently on the site proposed for the amendment" in sign
    assert "Posted by: the local government" in sign
    for name, text in every.items():
        assert "to be posted" not in text, name  # the law's place no longer follows "posted"


def test_sworn_wording_only_with_a_jurat(packets: dict) -> None:
    """An affidavit is sworn before a notary; a certificate certifies and has no notary block."""
    seen = set()
    for name, text in texts(packets).items():
        if "firm_mailing_list" in name:
            continue
        sworn = "being first duly sworn" in text
        assert sworn == ("Subscribed and sworn to before me on" in text), name
        assert sworn == ("Notary Public" in text) == ("STATE OF" in text), name
        assert sworn == bool(re.search(r"\bAFFIDAVIT OF\b", text)), name
        assert sworn != bool(re.search(r"\bcertif(y|ies)\b", text)), name
        seen.add(sworn)
    assert seen == {True, False}, "the samples have both sworn and certified proofs"


def test_an_affidavit_the_pack_does_not_want_notarized_is_a_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(JURISDICTIONS, packs)
    for pack in ("us-ri.yaml", "us-ri-east-providence.yaml"):
        path = packs / pack
        path.write_text(path.read_text().replace("notarized: true", "notarized: false"))
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    outputs, _ = make(CASES / "ep-2027-za-03.yaml")
    files = by_path(outputs)
    for text in (
        pdf_text(files["affidavit_of_mailing.pdf"]),
        docx_text(files["affidavit_of_mailing.docx"]),
    ):
        assert "CERTIFICATE OF MAILING" in text and "AFFIDAVIT" not in text
        assert "I, Leah Stoddard, City Clerk, City of East Providence, certify:" in text
        assert "sworn" not in text and "Notary" not in text and "STATE OF" not in text
        assert "described in this certificate" in text


def test_exhibit_a_says_who_was_mailed_in_plain_words(packets: dict) -> None:
    every = texts(packets)
    ep = every["ep-2027-za-03/affidavit_of_mailing.pdf"]
    assert "The persons listed are:" in ep
    assert (
        "the owners of record of parcels within 200 feet of the subject parcel, sent by"
        " first-class mail — R.I.G.L. § 45-24-53(b); East Providence Code § 19-74(2)(a)" in ep
    )
    assert "taken from the parcel ownership records (GIS parcel layer) as of November 2, 2026" in ep
    shelby = every["shelby-2027-cd-01/certificate_of_mailing.docx"]
    assert "the owners of record of parcels abutting the subject parcel, including parcels" in (
        shelby
    )
    for name, text in every.items():
        for jargon in ("bounding-box", "dwithin", "union", "owners_within", "subject_owners"):
            assert jargon not in text, (name, jargon)


def _exhibit_pages(data: bytes) -> list[pdfplumber.page.Page]:
    pdf = pdfplumber.open(io.BytesIO(data))
    return [p for p in pdf.pages if "Mailing address" in (p.extract_text() or "")]


def test_exhibit_rows_are_kept_whole_and_the_header_repeats(packets: dict) -> None:
    """114 recipients over several pages: a row is never cut in two, every page has the header."""
    _, files = packets["newport-2027-text-01"]
    pages = _exhibit_pages(files["affidavit_of_mailing.pdf"])
    assert len(pages) >= 3
    numbers = []
    for page in pages:
        words = page.extract_words()
        head = next(w for w in words if w["text"] == "Mailing")
        name = next(w for w in words if w["text"] == "Name" and abs(w["top"] - head["top"]) < 2)
        first_col = [w for w in words if w["x1"] < name["x0"] and w["top"] > head["bottom"]]
        rows = [w for w in first_col if w["text"].isdigit()]
        numbers += [int(w["text"]) for w in rows]
        # Nothing of a row carried over from the page before, above this page's first number.
        above = [w for w in words if head["bottom"] + 2 < w["bottom"] < rows[0]["top"] - 1]
        assert not above, [w["text"] for w in above]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers[-1] == 114


def test_word_lists_are_tables_with_a_repeating_header_and_whole_rows(packets: dict) -> None:
    _, files = packets["ep-2027-za-03"]
    doc = Document(io.BytesIO(files["affidavit_of_mailing.docx"]))
    (table,) = doc.tables
    rows = table.rows
    assert [c.text for c in rows[0].cells] == ["No.", "Name", "Mailing address", "Parcel(s)"]
    assert rows[0]._tr.find(".//{*}tblHeader") is not None
    assert len(rows) == 31 and all(r._tr.find(".//{*}cantSplit") is not None for r in rows[1:])


def test_each_mailing_has_its_own_firm_list_and_certificate(packets: dict) -> None:
    """The council letters of a two-hearing case had no firm mailing list and no certificate."""
    for case in ("ok-2027-map-01", "az-2027-map-01"):
        prepared, files = packets[case]
        waves = prepared.plan.of(Channel.MAIL)
        assert [d.name for d in waves] == ["letters-planning", "letters-council"]
        for doc in waves:
            body = doc.hearing.body.value
            count = len(mailroom.pieces(prepared.recipients_of(doc)).pieces)
            with pdfplumber.open(io.BytesIO(files[f"firm_mailing_list-{body}.pdf"])) as pdf:
                text = " ".join("\n".join(p.extract_text() for p in pdf.pages).split())
            assert f"notice of the hearing of the {doc.hearing.body_name} on" in text
            assert long(doc.hearing.date.isoformat()) in text
            assert f"Total number of pieces listed by sender: {count}" in text
            if case == "ok-2027-map-01":
                certificate = pdf_text(files[f"certificate_of_mailing-{body}.pdf"])
                assert f"held by the {doc.hearing.body_name} on" in certificate
                assert f"postage prepaid, {count} notices" in certificate
                assert f"({count})" in certificate
    # One mailing: the names of before.
    _, files = packets["ep-2027-za-03"]
    assert "firm_mailing_list.pdf" in files and "affidavit_of_mailing.pdf" in files
    assert firm_mailing_list.DOCUMENT.files[0].matches(
        "firm_mailing_list-council", firm_mailing_list.KIND
    )


def test_one_affidavit_of_publication_per_newspaper_notice(packets: dict) -> None:
    kind = DocumentKind.AFFIDAVIT_OF_PUBLICATION
    for prepared, files in packets.values():
        papers = prepared.plan.of(Channel.NEWSPAPER)
        wanted = [d for d in papers if proof.rule_for(prepared, d, kind)]
        made = sorted(n for n in files if n.startswith(kind.value) and n.endswith(".pdf"))
        assert made == sorted(f"{proof.named_after(kind, d, papers)}.pdf" for d in wanted)


def test_the_venue_is_spelled_out() -> None:
    text = pdf_text(
        by_path(make(CASES / "newport-2027-map-01.yaml")[0])["affidavit_of_mailing.pdf"]
    )
    assert "STATE OF RHODE ISLAND COUNTY OF NEWPORT ss." in text
