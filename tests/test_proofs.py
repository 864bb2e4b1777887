"""The proofs of mailed notice: affidavit of mailing, certificates of mailing and actual notice."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator import plan, recipients, schedule
from generator.inputs import load_case
from generator.proofs import proof_outputs
from generator.render.docx import text_of
from generator.rules.loader import resolve
from tests.conftest import CASES, write_case


def make(path: Path) -> tuple[list, recipients.RecipientList]:
    cf = load_case(path)
    pack = resolve(cf.case.jurisdiction)
    found = recipients.collect(cf, pack)
    cf = dataclasses.replace(cf, case=found.case)
    deadlines = schedule.compute(cf.case, pack)
    the_plan = plan.plan(cf.case, pack)
    return proof_outputs(the_plan, cf, found, deadlines), found


def pdf_text(data: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.split())


def docx_text(data: bytes) -> str:
    return " ".join(text_of(data).split())


def by_path(outputs: list) -> dict[str, bytes]:
    return {path: data for _kind, _fmt, path, data, _rules in outputs}


@pytest.fixture(scope="module")
def ep() -> tuple[list, recipients.RecipientList]:
    return make(CASES / "ep-2027-za-03.yaml")


def test_affidavit_of_mailing(ep: tuple[list, recipients.RecipientList]) -> None:
    outputs, found = ep
    files = by_path(outputs)
    assert sorted(files) == ["affidavit_of_mailing.docx", "affidavit_of_mailing.pdf"]
    rules = {o[4] for o in outputs}
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
