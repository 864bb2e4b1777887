"""Every document is dated on the day it goes out, and names only hearings still ahead of it.

Two-hearing samples are where this went wrong: the Oklahoma map sample's newspaper notice, in the
issue of Thursday, April 22, 2027, announced the commission hearing of April 20; the Arizona
council letters, dated April 19, announced the April 8 commission hearing; the Oklahoma council
letters (a notice the city's code times not at all) were dated with the case's as-of day, a
Sunday in 2026.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pypdf
import pytest

from generator.packet import build
from generator.prepare import prepare

from .conftest import CASES

SAMPLES = sorted(CASES.glob("*.yaml"))


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(path).pages).split())


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dates")
    return {
        case: build(CASES / f"{case}.yaml", out).folder
        for case in ("ok-2027-map-01", "az-2027-map-01")
    }


@pytest.mark.parametrize("case", SAMPLES, ids=lambda p: p.stem)
def test_every_planned_document_goes_out_before_its_hearing(case: Path) -> None:
    prepared = prepare(case)
    assert not [f for f in prepared.findings if f.code == "PLAN009"]
    for doc in prepared.plan.documents:
        assert doc.out, doc.name
        assert doc.out[-1] < doc.hearing.date, doc.name
        assert all(h.date > doc.out[-1] for h in doc.ahead(prepared.case.hearings)), doc.name


def test_the_oklahoma_notice_published_after_the_commission_hearing_names_only_the_council(
    packets: dict[str, Path],
) -> None:
    folder = packets["ok-2027-map-01"]
    text = (folder / "newspaper_notice.txt").read_text()
    assert "Publication date: Thursday, April 22, 2027." in text
    assert "May 10, 2027" in text
    assert "April 20, 2027" not in text and "Planning Commission of the City" not in text
    assert "April 20, 2027" not in _text(folder / "newspaper_notice.pdf")


def test_arizona_council_letters_and_transmittals_do_not_announce_the_past_commission_hearing(
    packets: dict[str, Path],
) -> None:
    folder = packets["az-2027-map-01"]
    for name in ("letters-council.pdf", "transmittal-council.pdf"):
        text = _text(folder / name)
        assert text.count("Monday, April 19, 2027") >= 1, name
        assert "April 8, 2027" not in text, name
    planning = _text(folder / "letters-planning.pdf")  # mailed March 24: both hearings ahead
    assert "Wednesday, March 24, 2027" in planning
    assert "April 8, 2027" in planning and "May 4, 2027" in planning


def test_oklahoma_council_letters_go_out_with_the_council_notice_and_the_clerk_is_told(
    packets: dict[str, Path],
) -> None:
    """The council letters, which no law times, go out with the council's first notice.

    That is its sign, posted no later than 20 days before the council (the city's code, since
    issue 17), which falls on the commission's hearing day: the letter's date is not the
    commission hearing, which the council letter does not name.
    """
    folder = packets["ok-2027-map-01"]
    text = _text(folder / "letters-council.pdf")
    assert "Tuesday, April 20, 2027" in text and "Planning Commission of" not in text
    assert "2026" not in text
    prepared = prepare(CASES / "ok-2027-map-01.yaml")
    (told,) = [f for f in prepared.findings if f.code == "MAIL004"]
    assert told.rule == "sc_mailed_notice_council" and "Tue 2027-04-20" in told.message
    council = next(d for d in prepared.plan.documents if d.name == "letters-council")
    assert council.dated == date(2027, 4, 20) and council.dated_by is None
