"""The sufficiency certificate, read back from its PDF and its DOCX (issue 17, item 2)."""

from __future__ import annotations

import io
from datetime import date

import pdfplumber
from docx import Document

from generator.documents import registry
from generator.kinds import DocumentKind
from generator.prepare import prepare

from .conftest import CASES


def _made(case: str, as_of: date) -> dict[str, bytes]:
    prepared = prepare(CASES / f"{case}.yaml", as_of=as_of)
    built = registry.make(prepared, (DocumentKind.SUFFICIENCY_CERTIFICATE,))
    return {o.path: o.data for o in built.outputs}


def _pdf_text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return " ".join((page.extract_text() or "") for page in pdf.pages)


def _docx_text(data: bytes) -> str:
    doc = Document(io.BytesIO(data))
    cells = [c.text for t in doc.tables for row in t.rows for c in row.cells]
    return " ".join([p.text for p in doc.paragraphs] + cells)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_certificate_lists_each_requirement_and_states_the_missed_one() -> None:
    made = _made("az-2027-map-01", date(2027, 4, 10))
    assert sorted(made) == [
        "sufficiency_certificate-council.docx",
        "sufficiency_certificate-council.pdf",
        "sufficiency_certificate-planning.docx",
        "sufficiency_certificate-planning.pdf",
    ]
    for suffix, read in (("pdf", _pdf_text), ("docx", _docx_text)):
        text = _flat(read(made[f"sufficiency_certificate-planning.{suffix}"]))
        assert "CERTIFICATE OF SUFFICIENCY OF NOTICE" in text
        # Each requirement by what it asks (the rule's id is the check's, not the court's); the
        # PDF's narrow columns wrap a cell's words among its neighbours', so the Word text counts.
        assert "[newspaper_notice]" not in text
        for what, times in (
            ()
            if suffix == "pdf"
            else (
                ("Publish the notice", 1),
                ("Mail the notice", 1),
                ("Send copies of the notice", 2),
                ("Post the sign on the property", 1),
            )
        ):
            assert text.count(what) == times, (suffix, what)
        assert "did NOT meet the law: publish the notice" in text
        assert "MISSED" in text and "Met" in text
        if suffix == "docx":
            assert "A.R.S. § 9-462.04(A)(1)" in text
            assert "Town of Saguaro Wells Zoning Code § 4-2-3(C)" in text
            assert "mailed Mon 2027-03-22, 45 pieces" in text
        assert "Karen Whitfield" in text and "Town Clerk" in text and "Signature:" in text
        assert "(the local government)" not in text and "{{" not in text


def test_a_certificate_whose_notices_all_met_the_law_says_so() -> None:
    made = _made("ok-2027-map-01", date(2027, 4, 21))
    text = _flat(_pdf_text(made["sufficiency_certificate-planning.pdf"]))
    assert "Every notice the law required for this hearing was given" in text
    word = _flat(_docx_text(made["sufficiency_certificate-planning.docx"]))
    assert "Post the sign on the property" in word and "posted Tue 2027-03-30" in word
    council = _flat(_docx_text(made["sufficiency_certificate-council.docx"]))
    assert "Not every required notice is yet due" in council
