"""Every notice says how to ask for an accommodation, from whom and by when; the linter knows the
clause however a notice words it, and reports it missing where a pack requires it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import docx
import pdfplumber
import pytest
import yaml
from pydantic import ValidationError

from generator.documents import registry
from generator.kinds import DocumentKind
from generator.lint.checks import clause_present
from generator.lint.engine import lint
from generator.models.case import Accommodation
from generator.models.pack import ClauseParams
from generator.packet import build
from generator.prepare import prepare
from generator.render import accommodation
from generator.rules.loader import resolve

from .conftest import CASES, ROOT, write_case

LINES = yaml.safe_load((ROOT / "tests" / "lint" / "accommodation_lines.yaml").read_text())
# Rhode Island requires the clause of every meeting notice; its pack says how to recognize it.
CHECKS = resolve("us-ri").rule("accommodation_notice").params.checks
# The notices each packet carries, in every format the linter reads.
NOTICES = (
    "newspaper_notice.txt",
    "newspaper_notice.html",
    "newspaper_notice.pdf",
    "newspaper_notice.docx",
    "letters.pdf",
    "letters.docx",
    "posting_notice.pdf",
    "website_notice.pdf",
)


FOOTER = re.compile(r"\bpage \d+ of \d+$", re.I)


def text_of(path: Path) -> str:
    """A document's words as a reader sees them, whitespace collapsed."""
    if path.suffix == ".pdf":
        with pdfplumber.open(path) as pdf:
            lines = [
                line for page in pdf.pages for line in (page.extract_text() or "").splitlines()
            ]
        # the page footers ("... page 2 of 3") fall between the words of a paragraph run over
        raw = " ".join(line for line in lines if not FOOTER.search(line))
    elif path.suffix == ".docx":
        raw = " ".join(p.text for p in docx.Document(str(path)).paragraphs)
    else:
        raw = path.read_text(encoding="utf-8")
    return " ".join(raw.replace("\u00a0", " ").split())


@pytest.mark.parametrize(
    "text", [e["text"] for e in LINES["published"]] + LINES["paraphrases"], ids=lambda t: t[:40]
)
def test_published_and_paraphrased_lines_are_recognized(text: str) -> None:
    assert clause_present(CHECKS, text)


@pytest.mark.parametrize("text", LINES["not_clause"], ids=lambda t: t[:40])
def test_other_sentences_are_not_taken_for_it(text: str) -> None:
    assert not clause_present(CHECKS, text)


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """East Providence (its pack requires the clause; the case asks 72 hours ahead, by relay too)
    and Saguaro Wells (no pack rule, no lead time: the ADA-based line all the same)."""
    out = tmp_path_factory.mktemp("accommodation")
    return {c: build(CASES / f"{c}.yaml", out).folder for c in ("ep-2027-za-03", "az-2027-map-01")}


def test_every_notice_says_whom_to_ask_and_by_when(packets: dict[str, Path]) -> None:
    folder = packets["ep-2027-za-03"]
    for name in NOTICES:
        text = text_of(folder / name)
        assert clause_present(CHECKS, text), name
        # 72 hours before Tuesday, March 16, 7:00 p.m. is Saturday evening; the office is
        # closed at the weekend, so requests are due on Friday.
        said = text.split("accommodation for the public hearing may be requested from ", 1)[1]
        assert said.startswith(
            "Leah Stoddard, City Clerk, at (401) 435-7596 (TTY: 711) or"
            " clerk@eastprovidenceri.gov, by Friday, March 12, 2027."
        ), (name, said[:200])


def test_the_clause_is_marked_for_the_rule_that_requires_it(packets: dict[str, Path]) -> None:
    folder = packets["ep-2027-za-03"]
    html = (folder / "newspaper_notice.html").read_text(encoding="utf-8")
    assert (
        '<div class="clause" data-clause="accommodation_notice"><p class="accommodation">' in html
    )
    word = docx.Document(str(folder / "newspaper_notice.docx")).element.xml
    assert 'w:name="clause_accommodation_notice"' in word


def test_without_a_pack_rule_or_a_lead_time_the_line_asks_as_early_as_possible(
    packets: dict[str, Path],
) -> None:
    folder = packets["az-2027-map-01"]
    for name in (
        "newspaper_notice-council.txt",
        "newspaper_notice-council.pdf",
        "letters-council.pdf",
    ):
        text = text_of(folder / name)
        assert (
            "may be requested from Daniel Reyes, Planning Manager, at (623) 555-0147 or"
            " planning@saguarowellsaz.gov, as early as possible before the public hearing." in text
        ), name
    html = (folder / "newspaper_notice-council.html").read_text(encoding="utf-8")
    assert '<p class="accommodation">' in html
    assert 'data-clause="accommodation' not in html  # no rule requires it: nothing to mark


def test_a_notice_without_the_line_fails_where_the_pack_requires_it(
    packets: dict[str, Path], tmp_path: Path
) -> None:
    text = (packets["ep-2027-za-03"] / "newspaper_notice.txt").read_text(encoding="utf-8")
    line = next(p for p in text.split("\n\n") if "may be requested from" in p)
    edited = tmp_path / "newspaper_notice.txt"
    edited.write_text(text.replace(line, ""), encoding="utf-8")
    result = lint([edited], case_path=CASES / "ep-2027-za-03.yaml")
    missing = [f for f in result.findings if f.code == "NL001"]
    assert [(f.rule, f.citation) for f in missing] == [
        ("accommodation_notice", "525-RICR-10-00-1.3(C); R.I.G.L. § 42-46-13")
    ]
    # Arizona's pack names no such clause: the same deletion is no lint error there.
    az = (packets["az-2027-map-01"] / "newspaper_notice-council.txt").read_text(encoding="utf-8")
    line = next(p for p in az.split("\n\n") if "may be requested from" in p)
    edited.write_text(az.replace(line, ""), encoding="utf-8")
    result = lint([edited], case_path=CASES / "az-2027-map-01.yaml", kind="newspaper_notice")
    assert not [f for f in result.findings if f.code == "NL001"]


def _due(case_text: str, tmp_path: Path) -> str | None:
    prepared = prepare(write_case(tmp_path, case_text))
    return accommodation.context(prepared.plan, prepared.case.hearings[0])["by"]


@pytest.mark.parametrize(
    ("lead", "due"),
    [
        # Tuesday, March 16, 2027, 7:00 p.m.: two business days back skip the weekend.
        ("{business_days_before: 2}", "Friday, March 12, 2027"),
        ("{business_days_before: 3}", "Thursday, March 11, 2027"),
        # Three days before is Saturday, a closure day: the request moves earlier, never later.
        ("{days_before: 3}", "Friday, March 12, 2027"),
        ("{days_before: 1}", "Monday, March 15, 2027"),
        # 24 hours before 7:00 p.m. Tuesday is Monday evening; the last whole day before it is
        # Sunday, when the office is closed.
        ("{hours_before: 24}", "Friday, March 12, 2027"),
        ("{}", None),
    ],
)
def test_the_day_requests_are_due_is_counted_by_the_schedule(
    lead: str, due: str | None, tmp_path: Path
) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace('accommodation: {relay: "711", hours_before: 72}', f"accommodation: {lead}")
    assert _due(text, tmp_path) == due


def test_a_lead_time_the_law_names_binds_and_the_case_s_own_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(ROOT / "jurisdictions", packs)
    local = packs / "us-ri-east-providence.yaml"
    local.write_text(
        local.read_text()
        + """
  - id: ep_accommodation_lead
    title: Requests for an accommodation three business days ahead
    citation: Example Code § 1-1
    text: Requests for an accommodation are made at least three business days before the meeting.
    supplements: accommodation_notice
    kind: clause
    params:
      documents: [newspaper_notice, letters, posting_notice, website_notice]
      topic: accommodation
      wording: Interpreter services for the hearing impaired are provided on request.
      request_lead: {type: business_days_before, business_days: 3}
"""
    )
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    prepared = prepare(CASES / "ep-2027-za-03.yaml")
    by = accommodation.context(prepared.plan, prepared.case.hearings[0])["by"]
    assert by == "Thursday, March 11, 2027"  # the law's three business days, not the case's 72 h
    (acc,) = [f for f in prepared.findings if f.code == "ACC002"]
    assert acc.rule == "accommodation_notice"
    assert "Fri 2027-03-12" in acc.message and "Thu 2027-03-11" in acc.message
    assert "Example Code § 1-1" in (acc.citation or "")
    # The law's words, then whom to ask and the law's day.
    (txt,) = [
        o.data.decode().replace("\u00a0", " ")
        for o in registry.make(prepared, (DocumentKind.NEWSPAPER_NOTICE,)).outputs
        if o.path.endswith(".txt")
    ]
    assert (
        "Interpreter services for the hearing impaired are provided on request. Requests: Leah"
        " Stoddard, City Clerk, at (401) 435-7596 (TTY: 711) or clerk@eastprovidenceri.gov,"
        " by Thursday, March 11, 2027." in txt
    )


def test_a_case_gives_one_lead_time() -> None:
    with pytest.raises(ValidationError, match="not several"):
        Accommodation.model_validate({"days_before": 3, "hours_before": 48})


def test_only_an_accommodation_clause_names_a_lead_time_counted_back_from_the_hearing() -> None:
    base = {"documents": ["newspaper_notice"], "topic": "accommodation"}
    lead = {"type": "business_days_before", "business_days": 2}
    ClauseParams.model_validate({**base, "request_lead": lead})
    with pytest.raises(ValidationError, match="only an accommodation clause"):
        ClauseParams.model_validate({**base, "topic": "may_be_amended", "request_lead": lead})
    with pytest.raises(ValidationError, match="counted back from the hearing"):
        ClauseParams.model_validate({**base, "request_lead": {"type": "within_after", "days": 3}})
