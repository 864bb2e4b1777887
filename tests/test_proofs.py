"""The proofs of mailed notice: affidavit of mailing, certificates of mailing and actual notice."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator import recipients, schedule
from generator.documents import proof_of_mailing, registry
from generator.documents.base import Output
from generator.kinds import DocumentKind
from generator.models.pack import Channel
from generator.prepare import Prepared, prepare
from generator.render.docx import text_of
from tests.conftest import CASES, write_case


def make(path: Path) -> tuple[list[Output], recipients.RecipientList]:
    """The proofs of mailed notice of a prepared case, and its recipients."""
    prepared = prepare(path)
    built = registry.make(prepared, kinds=proof_of_mailing.KINDS)
    return list(built.outputs), prepared.recipients


def pdf_text(data: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.split())


def docx_text(data: bytes) -> str:
    return " ".join(text_of(data).split())


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
        assert "as of 2026-11-02" in text
        assert "within 200 feet" in text
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
        assert "Town of Saguaro Wells Zoning Code § 4-2-3(D) (sample)" in text


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
