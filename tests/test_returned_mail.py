"""Letters returned undeliverable: what the law requires next, the re-mailing, the proof's list."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from docx import Document

from generator import returned_mail
from generator.cli import app
from generator.documents import registry
from generator.kinds import DocumentKind
from generator.prepare import prepare

from .conftest import CASES, ROOT, without_record

RETURNED = CASES / "ok-2027-map-01.returned.csv"


def _case(tmp_path: Path, csv: str | None = None, case: str = "ok-2027-map-01") -> Path:
    """A sample case whose record lists the letters of `csv` (the sample's) as returned."""
    text = without_record((CASES / f"{case}.yaml").read_text())
    text = text.replace("../data/gis/", f"{ROOT / 'data/gis'}/")
    name = "returned.csv"
    if csv is None:
        shutil.copy(RETURNED, tmp_path / name)
    else:
        (tmp_path / name).write_text(csv)
    text += f"\nrecord:\n  returned_mail:\n    - {{received_on: 2027-04-09, letters: {name}}}\n"
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    return path


def test_a_returned_letter_is_matched_and_re_mailed_to_the_site_address(tmp_path: Path) -> None:
    prepared = prepare(_case(tmp_path))
    by_parcel, by_address = returned_mail.returned(prepared)
    assert by_parcel.mailed.lines == ["9196 MAPLE AVE"] and by_parcel.mailed.city == "NORMAN"
    assert by_address.mailed.parcels == ["R0409120"]
    # The tax record's other address: the parcel's site address, in the city and ZIP Code the
    # owners on the same street are mailed at.
    assert by_parcel.remail is not None
    assert (by_parcel.remail.lines, by_parcel.remail.city, by_parcel.remail.zip5) == (
        ["1329 W MAIN ST"],
        "SAMPLE CITY",
        "74999",
    )
    # 11 O.S. § 43-106 says nothing of a returned notice: a warning says so.
    found = by_parcel.finding()
    assert found.code == "RET002" and found.severity == "warning"
    assert found.citation == "11 O.S. § 43-106" and "returned.csv:2" in found.message


def test_the_re_mailing_uses_the_letter_builder_and_the_proof_lists_the_returned_piece(
    tmp_path: Path,
) -> None:
    prepared = prepare(_case(tmp_path))
    made = registry.make(prepared, (DocumentKind.LETTERS, DocumentKind.CERTIFICATE_OF_MAILING))
    paths = {o.path for o in made.outputs}
    assert {"remail-letters-council.pdf", "remail-letters-council.docx"} <= paths
    assert {"letters-council.pdf", "certificate_of_mailing-council.pdf"} <= paths
    assert sum(f.code == "RET002" for f in made.findings) == 2
    # The Word proof lists the returned pieces as the PDF does.
    data = {o.path: o.data for o in made.outputs}
    word = Document(io.BytesIO(data["certificate_of_mailing-planning.docx"]))
    text = [p.text for p in word.paragraphs]
    assert "Returned undeliverable" in text
    (returned,) = [t for t in word.tables if t.rows[0].cells[-1].text == "Mailed again to"]
    rows = [[c.text for c in row.cells] for row in returned.rows[1:]]
    first = rows[0][2:]
    assert first == ["R0412480", "Friday, April 9, 2027", "1329 W MAIN ST, SAMPLE CITY OK 74999"]


def test_a_re_mailing_is_dated_once_the_letter_is_back(tmp_path: Path) -> None:
    """Returned Friday 2027-04-09: the planning letter due by 2027-03-31 is written again that
    day, never dated before it came back; the council letter keeps its own day."""
    prepared = prepare(_case(tmp_path))
    made = registry.make(prepared, (DocumentKind.LETTERS,))
    data = {o.path: o.data for o in made.outputs}
    for name, day in (
        ("remail-letters-planning.pdf", "Friday, April 9, 2027"),
        ("remail-letters-council.pdf", "Tuesday, April 20, 2027"),
    ):
        with pdfplumber.open(io.BytesIO(data[name])) as pdf:
            assert day in (pdf.pages[0].extract_text() or ""), name


def test_a_letter_sent_to_the_site_address_has_no_other_address(tmp_path: Path) -> None:
    prepared = prepare(_case(tmp_path, "parcel_id\nR0410780\n"))  # owner-occupied: 1437 W 3RD ST
    [piece] = returned_mail.returned(prepared)
    assert piece.remail is None and piece.finding().code == "RET003"


def test_a_standards_change_in_arizona_requires_nothing_more(tmp_path: Path) -> None:
    # A.R.S. § 9-462.04(A)(7): the failure to receive the notice invalidates nothing.
    path = _case(tmp_path, "address\n18231 W. Ocotillo Lane\n", case="az-2027-text-01")
    [piece] = returned_mail.returned(prepare(path))
    assert piece.mailed.name == "Linda Castellanos" and piece.next == "nothing"
    found = piece.finding()
    assert found.code == "RET001" and found.citation == "A.R.S. § 9-462.04(A)(7)"


def test_a_row_that_matches_no_letter_is_bad_input_with_file_and_line(tmp_path: Path) -> None:
    path = _case(tmp_path, "parcel_id,address\nR0412480,\n,12 NOWHERE RD\n")
    result = CliRunner().invoke(app, ["returned", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "returned.csv:3: address: no letter was mailed to this address" in result.output


@pytest.mark.slow
def test_returned_rebuilds_the_proof_and_keeps_the_old_one_in_history(tmp_path: Path) -> None:
    path = _case(tmp_path)
    text = path.read_text()
    path.write_text(text[: text.index("\nrecord:")] + "\n")
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(app, ["build", str(path), "--out", str(out)]).exit_code == 0
    path.write_text(text)  # the letters come back
    result = runner.invoke(app, ["returned", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "RET002" in result.output
    folder = out / "ok-2027-map-01"
    history = folder / "history" / "2027-04-09-returned"
    assert (history / "certificate_of_mailing-council.pdf").is_file()
    assert not (history / "letters-council.pdf").exists()  # the letters mailed are unchanged
    documents = {d["path"] for d in json.loads((folder / "manifest.json").read_text())["documents"]}
    assert "remail-letters-council.pdf" in documents
